// SVG effects in templates (issue 28): the clipPath, mask, filter, `<use>` of a
// `<symbol viewBox>`, transformed gradients and `<text>` that templates pasted from
// @vercel/og / next/og and takumi carry (Figma exports every icon as `<g clip-path>`),
// drawn by the sandboxed helper with librsvg (server/svg_raster/rsvg_draw.h) as Chromium
// draws them. Chromium-referenced cards (tests/render/svg_effects: cases/NAME.json and
// chromium/NAME.png, both written by make_cases.mjs from React's markup of the same
// trees) rendered by both layout engines, SSIM against a floor per card. QtSvg, which
// ignores clipPath, mask and filter, scored 0.863–0.963 on the effect cards, below every
// floor here; it also sized an SVG image in inches, mm or pt at 90 px per inch, and one
// without any size at its content's extent, where Chromium (and librsvg) take 96 and
// 300×150. Text takes the font of the HTML around the svg and its baseline keywords; a CSS
// transform turns about its transform-origin (text-font-baseline, transform-origin).
// Set IMPRINT_SVG_EFFECTS_DUMP=DIR to write the renders there as PNG.

#include "tests/support/chromium_cards.h"

#include <QTest>

#include <map>

using namespace imprint::render;

namespace {

// Floors: what each engine achieved when the card was added, less 0.005.
// name               takumi  satori    (achieved takumi / satori; QtSvg before, both engines)
constexpr test::CardFloors kCards[] = {
    {"figma-icons", 0.994, 0.991}, // 0.99978 / 0.99695; QtSvg 0.949 / 0.947
    {"filter-shadow", 0.994, 0.994}, // 0.99951 / 0.99946; QtSvg 0.959 / 0.959
    {"mask", 0.994, 0.988}, // 0.99956 / 0.99332; QtSvg 0.868 / 0.863
    {"symbol-use", 0.994, 0.994}, // 0.99995 / 0.99991; QtSvg 0.963 / 0.963
    {"gradients", 0.994, 0.994}, // 0.99919 / 0.99907; QtSvg 0.999 / 0.999
    {"lucide", 0.994, 0.994}, // 0.99951 / 0.99946; QtSvg 0.999 / 0.999
    {"svg-text", 0.992, 0.992}, // 0.99755 / 0.99753; QtSvg 0.997 / 0.997
    {"img-units", 0.989, 0.989}, // 0.99402 / 0.99401; QtSvg 0.906 / 0.906 (its 90 px inch)
    {"img-data-url", 0.994, 0.994}, // 0.99965 / 0.99963; QtSvg 0.937 / 0.937
    {"image-nested-svg", 0.994, 0.990}, // 0.99937 / 0.99591; an SVG <image> drawn at its own size before: 0.958
    // The font around the svg and dominant-baseline: 0.99399 / 0.99382; librsvg's serif and baselines 0.929
    {"text-font-baseline", 0.989, 0.988},
    // transform-origin, transform-box and an SVG image's default font: 0.99835 / 0.99822; before 0.936
    {"transform-origin", 0.993, 0.993},
};

} // namespace

class TestSvgEffects : public QObject
{
    Q_OBJECT

private slots:
    void card_data() { test::addCardRows(kCards); }

    void card()
    {
        test::verifyCardRow(QStringLiteral(IMPRINT_SOURCE_DIR "/tests/render/svg_effects"),
                            qEnvironmentVariable("IMPRINT_SVG_EFFECTS_DUMP"), m_achieved);
    }

    /// Each engine's mean over the cards (QtSvg's: 0.953).
    void means() { test::verifyEngineMeans(m_achieved, int(std::size(kCards)), 0.99); }

private:
    std::map<QString, double> m_achieved;
};

QTEST_MAIN(TestSvgEffects)
#include "tst_svg_effects.moc"
