// Where lines break in text without spaces, and how fullwidth punctuation is set, as
// Chromium does it: word-break (break-all, keep-all), Korean syllables, Japanese small
// kana, Thai, Lao, Khmer and Myanmar dictionary words (ICU), and CJK punctuation collapsing
// (text-spacing-trim). Split from tst_text.cpp.

#include "server/render/text/text_engine.h"
#include "server/render/text/text_internal.h"
#include "tests/render/text_test_support.h"
#include "tests/support/render_context.h"

#include <QFontMetricsF>
#include <QTest>

using namespace imprint::render;
using imprint::render::test::dejaVu;
using imprint::render::test::familyStyle;

class TestTextBreaks : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { TextEngine::clearThreadCache(); }

    void breakAllBreaksInsideWords()
    {
        ComputedStyle s = dejaVu();
        const QString word = QStringLiteral("Supercalifragilisticexpialidocious");
        QCOMPARE(imprint::test::renderContext().text().shape(s, word, 100)->lines.size(), size_t(1));
        s.wordBreak = WordBreak::BreakAll;
        const auto block = imprint::test::renderContext().text().shape(s, word, 100);
        QVERIFY(block->lines.size() >= 3);
        QVERIFY(block->size.width() <= 100.01);
    }

    void keepAllBreaksCjkOnlyBetweenWords()
    {
        ComputedStyle s = dejaVu();
        // Three four-character Japanese words (20 px each); 130 px holds six characters.
        const QString text = QStringLiteral("東京都庁 大阪府庁 京都府庁");
        const qreal wordWidth
            = imprint::test::renderContext().text().shape(s, QStringLiteral("東京都庁"), kMaxContent)->size.width();
        QVERIFY(wordWidth > 60 && wordWidth < 100);
        const auto normal = imprint::test::renderContext().text().shape(s, text, 130);
        s.wordBreak = WordBreak::KeepAll;
        const auto keepAll = imprint::test::renderContext().text().shape(s, text, 130);
        // keep-all: one whole word per line, and the joiners between ideographs add no
        // width; normal: any two ideographs may break, so the first line fills up with
        // the second word's first character.
        QCOMPARE(keepAll->lines.size(), size_t(3));
        for (const TextLine &line : keepAll->lines)
            QVERIFY2(qAbs(line.width - wordWidth) < 0.5, qPrintable(QString::number(line.width)));
        QVERIFY2(normal->lines.front().width > wordWidth + 10,
                 qPrintable(QString::number(normal->lines.front().width)));
        // Latin text is unaffected.
        const QString latin = QStringLiteral("keep all words together");
        ComputedStyle plain = dejaVu();
        QCOMPARE(imprint::test::renderContext().text().shape(s, latin, 120)->lines.size(),
                 imprint::test::renderContext().text().shape(plain, latin, 120)->lines.size());
    }

    void koreanBreaksBetweenSyllables()
    {
        ComputedStyle s = dejaVu();
        // Fourteen Hangul syllables without a space: Chromium (ICU) may break between any
        // two of them (UAX #14 LB31 for H2/H3), so the line wraps within 120 px instead of
        // overflowing as one word; the break controls add no width.
        const QString text = QStringLiteral("가나다라마바사아자차카타파하");
        const qreal whole = imprint::test::renderContext().text().shape(s, text, kMaxContent)->size.width();
        const auto wrapped = imprint::test::renderContext().text().shape(s, text, 120);
        QVERIFY2(wrapped->lines.size() >= 2, qPrintable(QString::number(wrapped->lines.size())));
        qreal sum = 0;
        for (const TextLine &line : wrapped->lines) {
            QVERIFY2(line.width <= 120.01, qPrintable(QString::number(line.width)));
            sum += line.width;
        }
        QVERIFY2(qAbs(sum - whole) < 0.5, qPrintable(QStringLiteral("%1 vs %2").arg(sum).arg(whole)));
        // keep-all keeps the Korean word whole, as in Chromium.
        s.wordBreak = WordBreak::KeepAll;
        QCOMPARE(imprint::test::renderContext().text().shape(s, text, 120)->lines.size(), size_t(1));
    }

    void smallKanaMayStartALine()
    {
        ComputedStyle s = dejaVu(24);
        // Fullwidth kana, 24 px each. Chromium (ICU's normal line breaking, UAX #14 CJ as
        // ID) breaks "キ|ャッシュ" in a 250 px box: ten characters on the first line. Qt 6.4
        // keeps small kana to the character before, so the line ended after nine.
        const QString text = QStringLiteral("あいうえおかきくけキャッシュ");
        const auto wrapped = imprint::test::renderContext().text().shape(s, text, 250);
        QCOMPARE(wrapped->lines.size(), size_t(2));
        QVERIFY2(qAbs(wrapped->lines.front().width - 240) < 0.5, qPrintable(QString::number(wrapped->lines.front().width)));
        // The break control adds no width, and keep-all still keeps the word whole.
        const qreal whole = imprint::test::renderContext().text().shape(s, text, kMaxContent)->size.width();
        QVERIFY2(qAbs(whole - 14 * 24) < 0.5, qPrintable(QString::number(whole)));
        s.wordBreak = WordBreak::KeepAll;
        QCOMPARE(imprint::test::renderContext().text().shape(s, text, 250)->lines.size(), size_t(1));
    }

    void thaiBreaksBetweenDictionaryWords()
    {
        TextEngine &engine = imprint::test::renderContext().text();
        ComputedStyle s = familyStyle(QStringLiteral("Inter"), 64);
        s.fontWeight = 700;
        s.lang = QStringLiteral("th");
        const QString title = QStringLiteral("วิธีสร้างภาพ Open Graph สำหรับเว็บไซต์ของคุณด้วย Next.js ในห้านาที");
        const auto widthOf = [&](const QString &text) { return engine.shape(s, text, kMaxContent)->size.width(); };
        // Chromium (ICU's line breaker and its Thai dictionary) wraps this title at 1056 px
        // after "สำหรับ" and keeps "เว็บไซต์" ("website") whole; Qt 6.4, breaking Thai with
        // libthai, ended the first line in "เว็บ".
        const auto wrapped = engine.shape(s, title, 1056);
        QCOMPARE(wrapped->lines.size(), size_t(2));
        const qreal first = widthOf(QStringLiteral("วิธีสร้างภาพ Open Graph สำหรับ"));
        QVERIFY2(qAbs(wrapped->lines[0].width - first) < 0.5,
                 qPrintable(QStringLiteral("%1 vs %2").arg(wrapped->lines[0].width).arg(first)));
        const qreal second = widthOf(QStringLiteral("เว็บไซต์ของคุณด้วย Next.js ในห้านาที"));
        QVERIFY2(qAbs(wrapped->lines[1].width - second) < 0.5,
                 qPrintable(QStringLiteral("%1 vs %2").arg(wrapped->lines[1].width).arg(second)));
        // A Thai word after a Latin one and a space may start a line ("Graph |สำหรับ"): Qt
        // never broke at the start of a Thai run, and put "Graph" on the next line.
        const qreal upToGraph = widthOf(QStringLiteral("วิธีสร้างภาพ Open Graph"));
        const auto narrow = engine.shape(s, title, upToGraph + 20);
        QVERIFY2(qAbs(narrow->lines[0].width - upToGraph) < 0.5,
                 qPrintable(QStringLiteral("%1 vs %2").arg(narrow->lines[0].width).arg(upToGraph)));
        // The break controls have no advance: the max-content width is the unwrapped line's.
        ComputedStyle nowrap = s;
        nowrap.whiteSpace = WhiteSpace::NoWrap;
        QVERIFY2(qAbs(widthOf(title) - engine.shape(nowrap, title, kMaxContent)->size.width()) < 0.01,
                 qPrintable(QString::number(widthOf(title))));
        // keep-all leaves Thai to the dictionary, as in Chromium (it keeps letters together
        // only outside the SA class); break-all still breaks inside the words.
        ComputedStyle keepAll = s;
        keepAll.wordBreak = WordBreak::KeepAll;
        const auto kept = engine.shape(keepAll, title, 1056);
        QCOMPARE(kept->lines.size(), size_t(2));
        QVERIFY2(qAbs(kept->lines[0].width - first) < 0.5, qPrintable(QString::number(kept->lines[0].width)));
        ComputedStyle breakAll = s;
        breakAll.wordBreak = WordBreak::BreakAll;
        const auto broken = engine.shape(breakAll, title, 1056);
        QVERIFY2(broken->lines[0].width > first + 100, qPrintable(QString::number(broken->lines[0].width)));
    }

    void laoAndKhmerBreakBetweenWords_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("lang");
        QTest::newRow("lao") << QStringLiteral("ເວັບໄຊທ໌ຂອງທ່ານສ້າງຮູບພາບ") << QStringLiteral("lo");
        QTest::newRow("khmer") << QStringLiteral("គេហទំព័ររបស់អ្នកបង្កើតរូបភាព") << QStringLiteral("km");
    }

    void laoAndKhmerBreakBetweenWords()
    {
        QFETCH(QString, text);
        QFETCH(QString, lang);
        // Words without spaces between them: Chromium breaks between the dictionary's
        // words, Qt 6.4 kept the run whole and it overflowed a box half its width.
        ComputedStyle s = familyStyle(QStringLiteral("Noto Sans"), 32);
        s.lang = lang;
        TextEngine &engine = imprint::test::renderContext().text();
        const qreal whole = engine.shape(s, text, kMaxContent)->size.width();
        const auto wrapped = engine.shape(s, text, whole * 0.6);
        QVERIFY2(wrapped->lines.size() >= 2, qPrintable(QString::number(wrapped->lines.size())));
        qreal sum = 0;
        for (const TextLine &line : wrapped->lines) {
            QVERIFY2(line.width <= whole * 0.6 + 0.01, qPrintable(QString::number(line.width)));
            sum += line.width;
        }
        QVERIFY2(qAbs(sum - whole) < 0.5, qPrintable(QStringLiteral("%1 vs %2").arg(sum).arg(whole)));
    }

    void myanmarSyllablesStayWhole()
    {
        // Qt 6.4 ends a grapheme cluster between a Myanmar consonant and its medial ra
        // ("မ|ြ"); a break control there split the syllable for HarfBuzz, which drew dotted
        // circles: 278.19 px at 40 px where Chromium's "မြန်မာဘာသာ" is 230.69.
        const QString text = QString::fromUtf8("မြန်မာဘာသာ");
        const QString broken = text_detail::withDictionaryBreaks(text, QStringLiteral("my"));
        QVERIFY(broken.startsWith(QString::fromUtf8("မြ")));
        ComputedStyle s = familyStyle(QStringLiteral("Inter"), 40);
        TextEngine &engine = imprint::test::renderContext().text();
        for (const QString &lang : {QString(), QStringLiteral("my")}) {
            s.lang = lang;
            const qreal width = engine.shape(s, text, kMaxContent)->size.width();
            QVERIFY2(std::abs(width - 230.69) < 0.5, qPrintable(QString::number(width)));
        }
    }

    // CSS Text 4 §4.2 text-spacing-trim: normal, as Chromium: where two fullwidth marks
    // meet, one blank half goes ("」、" "、「" "」。" "。（": four halves in this line of
    // thirteen 24 px characters), drawn by Noto Sans CJK (which has `halt`) as the
    // fallback face.
    void fullwidthPunctuationCollapses_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qreal>("ems");
        QTest::newRow("pairs") << QStringLiteral("「東京」、「大阪」。（注）") << 11.0;
        QTest::newRow("close before middle dot") << QStringLiteral("（注）・田中") << 5.5;
        QTest::newRow("open after open") << QStringLiteral("『「引用」』") << 5.0;
        QTest::newRow("ideographs and a lone colon") << QStringLiteral("作者：山田・田中") << 8.0;
        QTest::newRow("a space between") << QStringLiteral("「東京」 「大阪」") << 8.0 + 651.0 / 2048; // DejaVu's space
        QTest::newRow("ascii brackets") << QStringLiteral("(a)(b)") << -1.0;
    }
    void fullwidthPunctuationCollapses()
    {
        QFETCH(QString, text);
        QFETCH(qreal, ems);
        ComputedStyle s = dejaVu(24);
        const auto shaped = imprint::test::renderContext().text().shape(s, text, kMaxContent);
        if (ems < 0) { // nothing fullwidth: the same advances as DejaVu Sans's own
            const qreal plain = QFontMetricsF(imprint::test::renderContext().text().fontFor(s)).horizontalAdvance(text);
            QVERIFY2(qAbs(shaped->size.width() - plain) < 0.5, qPrintable(QString::number(shaped->size.width())));
            return;
        }
        QVERIFY2(qAbs(shaped->size.width() - ems * 24) < 1.5,
                 qPrintable(QStringLiteral("%1 px, expected %2").arg(shaped->size.width()).arg(ems * 24)));
    }
};

QTEST_MAIN(TestTextBreaks)
#include "tst_text_breaks.moc"
