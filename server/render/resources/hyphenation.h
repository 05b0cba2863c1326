#pragma once
// Automatic hyphenation (CSS Text 3 §5.4 `hyphens: auto`): the hyphenation opportunities
// of the Liang patterns Debian packages for libhyphen (hyphen-en-us: /usr/share/hyphen),
// chosen by the content language, with Blink's rules for which words are hyphenated.
// The opportunities become soft hyphens (U+00AD) in the text, which the line breaker
// treats as `hyphens: manual` does: a break there shows a hyphen, no break shows nothing.
// Both layout engines and the html engine's page (whose Chromium has no dictionary of its
// own on Debian) hyphenate through this one function, so all three break alike.

#include <QString>

namespace imprint::render {

/// The pattern file for the content language `lang` (a BCP 47 tag, any case), mapped as
/// Blink maps a locale to its dictionary (HyphenationMinikin::MapLocale): `en`, `en-US`
/// and the other CLDR children of American English use the American English patterns,
/// the only ones scripts/deps installs (hyphen-en-us); `en-GB` and the other English
/// locales map to British English, which Imprint (like Debian's Chromium) lacks. An empty
/// `lang` has no dictionary: Blink hyphenates only text whose language is known.
/// Returns an empty string when there is none. The file is hyphen-en-us's; when it is
/// missing, insertSoftHyphens() finds that once, on its first load, and hyphenates nothing.
QString hyphenationDictionaryPath(const QString &lang);

/// `text` with a soft hyphen at every hyphenation opportunity of its words for `lang`.
/// Following Blink (hyphenation_minikin.cc): a word is the text between two break
/// opportunities less leading spaces, opening punctuation and quotes and trailing
/// punctuation; it is hyphenated only when it has at least 5 characters, all letters,
/// and does not begin with a capital letter; opportunities leave at least 2 letters
/// before and 2 after. A word that already holds a soft hyphen keeps the author's.
/// Non-ASCII words are left whole. When `text` ends its paragraph (`endsParagraph`), its
/// last word is left whole too, as Blink leaves the last word of a paragraph. Returns `text` unchanged when there is no dictionary
/// for `lang` or it fails to load. Thread-safe; a dictionary is loaded once per process.
QString insertSoftHyphens(const QString &text, const QString &lang, bool endsParagraph = true);

} // namespace imprint::render
