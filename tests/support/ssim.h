#pragma once
// Mean SSIM of luma, the fidelity measure of the golden tests (over white;
// Y = 0.299 R + 0.587 G + 0.114 B; 11×11 Gaussian window, sigma 1.5; K1 0.01, K2 0.03,
// L 255; windows that fit entirely: Wang et al. 2004 as the peers' scoring script
// computes it), shared by every engine's golden test.

#include <QImage>

#include <array>
#include <cmath>
#include <vector>

namespace imprint::render::test {

/// Luma of `image` composited over white, row-major.
inline std::vector<double> lumaOverWhite(const QImage &image)
{
    const QImage argb = image.convertToFormat(QImage::Format_ARGB32);
    std::vector<double> luma(size_t(argb.width()) * size_t(argb.height()));
    for (int y = 0; y < argb.height(); ++y) {
        const auto *row = reinterpret_cast<const QRgb *>(argb.constScanLine(y));
        for (int x = 0; x < argb.width(); ++x) {
            const double a = qAlpha(row[x]) / 255.0;
            const double r = qRed(row[x]) * a + 255 * (1 - a), g = qGreen(row[x]) * a + 255 * (1 - a),
                         b = qBlue(row[x]) * a + 255 * (1 - a);
            luma[size_t(y) * size_t(argb.width()) + size_t(x)] = 0.299 * r + 0.587 * g + 0.114 * b;
        }
    }
    return luma;
}

/// Mean SSIM (Wang et al. 2004) of two luma planes of w × h, as score.mjs computes it.
inline double meanSsim(const std::vector<double> &a, const std::vector<double> &b, int w, int h)
{
    constexpr int kWin = 11;
    constexpr double kSigma = 1.5, kL = 255, c1 = (0.01 * kL) * (0.01 * kL), c2 = (0.03 * kL) * (0.03 * kL);
    double gauss[kWin];
    double sum = 0;
    for (int i = 0; i < kWin; ++i) {
        gauss[i] = std::exp(-((i - 5.0) * (i - 5.0)) / (2 * kSigma * kSigma));
        sum += gauss[i];
    }
    for (double &g : gauss)
        g /= sum;
    const int ow = w - kWin + 1, oh = h - kWin + 1;
    std::vector<std::array<double, 5>> planes(size_t(ow) * size_t(h));
    for (int y = 0; y < h; ++y) {
        for (int x = 0; x < ow; ++x) {
            std::array<double, 5> s{};
            for (int k = 0; k < kWin; ++k) {
                const double g = gauss[k], va = a[size_t(y) * w + x + k], vb = b[size_t(y) * w + x + k];
                s[0] += g * va, s[1] += g * vb, s[2] += g * va * va, s[3] += g * vb * vb, s[4] += g * va * vb;
            }
            planes[size_t(y) * ow + x] = s;
        }
    }
    double total = 0;
    for (int y = 0; y < oh; ++y) {
        for (int x = 0; x < ow; ++x) {
            std::array<double, 5> m{};
            for (int k = 0; k < kWin; ++k) {
                const auto &p = planes[size_t(y + k) * ow + x];
                for (int i = 0; i < 5; ++i)
                    m[size_t(i)] += gauss[k] * p[size_t(i)];
            }
            const double va = m[2] - m[0] * m[0], vb = m[3] - m[1] * m[1], cov = m[4] - m[0] * m[1];
            total += ((2 * m[0] * m[1] + c1) * (2 * cov + c2)) / ((m[0] * m[0] + m[1] * m[1] + c1) * (va + vb + c2));
        }
    }
    return total / (double(ow) * oh);
}

/// SSIM of two images of the same size (0 when the sizes differ).
inline double ssimOf(const QImage &a, const QImage &b)
{
    if (a.size() != b.size())
        return 0;
    return meanSsim(lumaOverWhite(a), lumaOverWhite(b), a.width(), a.height());
}

} // namespace imprint::render::test
