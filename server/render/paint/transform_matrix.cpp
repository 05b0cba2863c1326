#include "server/render/paint/transform_matrix.h"

#include <QtMath>

#include <cmath>

namespace imprint::render {

TransformMatrix TransformMatrix::fromQTransform(const QTransform &t)
{
    // Qt maps (x, y, 1) as a row: x' = m11 x + m21 y + m31, w' = m13 x + m23 y + m33.
    TransformMatrix m;
    m.ref(0, 0) = t.m11();
    m.ref(0, 1) = t.m21();
    m.ref(0, 3) = t.m31();
    m.ref(1, 0) = t.m12();
    m.ref(1, 1) = t.m22();
    m.ref(1, 3) = t.m32();
    m.ref(3, 0) = t.m13();
    m.ref(3, 1) = t.m23();
    m.ref(3, 3) = t.m33();
    return m;
}

TransformMatrix TransformMatrix::translation(double x, double y, double z)
{
    TransformMatrix m;
    m.ref(0, 3) = x;
    m.ref(1, 3) = y;
    m.ref(2, 3) = z;
    return m;
}

TransformMatrix TransformMatrix::scaling(double x, double y, double z)
{
    TransformMatrix m;
    m.ref(0, 0) = x;
    m.ref(1, 1) = y;
    m.ref(2, 2) = z;
    return m;
}

TransformMatrix TransformMatrix::rotation(double x, double y, double z, double degrees)
{
    const double length = std::sqrt(x * x + y * y + z * z);
    if (length == 0 || !std::isfinite(length))
        return {};
    x /= length;
    y /= length;
    z /= length;
    const double half = qDegreesToRadians(degrees) / 2;
    const double sc = std::sin(half) * std::cos(half), sq = std::sin(half) * std::sin(half);
    TransformMatrix m;
    m.ref(0, 0) = 1 - 2 * (y * y + z * z) * sq;
    m.ref(0, 1) = 2 * (x * y * sq - z * sc);
    m.ref(0, 2) = 2 * (x * z * sq + y * sc);
    m.ref(1, 0) = 2 * (x * y * sq + z * sc);
    m.ref(1, 1) = 1 - 2 * (x * x + z * z) * sq;
    m.ref(1, 2) = 2 * (y * z * sq - x * sc);
    m.ref(2, 0) = 2 * (x * z * sq - y * sc);
    m.ref(2, 1) = 2 * (y * z * sq + x * sc);
    m.ref(2, 2) = 1 - 2 * (x * x + y * y) * sq;
    return m;
}

TransformMatrix TransformMatrix::perspective(double distance)
{
    TransformMatrix m;
    if (distance > 0)
        m.ref(3, 2) = -1 / distance;
    return m;
}

TransformMatrix TransformMatrix::fromColumns(const std::array<float, 16> &columns)
{
    TransformMatrix m;
    for (int column = 0; column < 4; ++column)
        for (int row = 0; row < 4; ++row)
            m.ref(row, column) = columns[size_t(column * 4 + row)];
    return m;
}

TransformMatrix TransformMatrix::operator*(const TransformMatrix &other) const
{
    TransformMatrix out;
    for (int row = 0; row < 4; ++row)
        for (int column = 0; column < 4; ++column) {
            double sum = 0;
            for (int k = 0; k < 4; ++k)
                sum += at(row, k) * other.at(k, column);
            out.ref(row, column) = sum;
        }
    return out;
}

QTransform TransformMatrix::toQTransform() const
{
    // The plane z = 0 keeps columns 0, 1 and 3; the page keeps rows 0, 1 and 3 (x, y, w).
    // A w that does not vary over the plane (translateZ under a perspective) divides
    // out: the matrix is then affine, which every painter draws directly.
    const double w = at(3, 3);
    const double k = at(3, 0) == 0 && at(3, 1) == 0 && w != 0 && std::isfinite(w) ? 1 / w : 1;
    return QTransform(at(0, 0) * k, at(1, 0) * k, at(3, 0) * k, at(0, 1) * k, at(1, 1) * k, at(3, 1) * k,
                      at(0, 3) * k, at(1, 3) * k, at(3, 3) * k);
}

bool TransformMatrix::isBackFacing() const
{
    // inverse(m)[2][2] = cofactor(2, 2) / det(m): the minor without row 2 and column 2.
    const auto minor3 = [this](int skipRow, int skipColumn) {
        int rows[3], columns[3];
        for (int i = 0, r = 0, c = 0; i < 4; ++i) {
            if (i != skipRow)
                rows[r++] = i;
            if (i != skipColumn)
                columns[c++] = i;
        }
        const auto e = [&](int r, int c) { return at(rows[r], columns[c]); };
        return e(0, 0) * (e(1, 1) * e(2, 2) - e(1, 2) * e(2, 1)) - e(0, 1) * (e(1, 0) * e(2, 2) - e(1, 2) * e(2, 0))
               + e(0, 2) * (e(1, 0) * e(2, 1) - e(1, 1) * e(2, 0));
    };
    double determinant = 0;
    for (int column = 0; column < 4; ++column)
        determinant += (column % 2 ? -1 : 1) * at(0, column) * minor3(0, column);
    if (determinant == 0 || !std::isfinite(determinant))
        return false;
    return minor3(2, 2) / determinant < 0;
}

} // namespace imprint::render
