#pragma once
// 4×4 transformation matrices (CSS Transforms 2 §12, "Mathematical Description of
// Transform Functions"): what a transform list, its origin and the parent's perspective
// make, before the painters flatten it onto the page (§6, "The Transform Rendering Model").

#include <QTransform>

#include <array>

namespace imprint::render {

/// A 4×4 matrix in doubles, in the specification's convention: a point is the column
/// (x, y, z, 1), so `a * b` applies `b` first. Page px throughout.
class TransformMatrix
{
public:
    /// The identity.
    TransformMatrix() = default;

    /// `t` (a 2D affine or projective QTransform, Qt's row-vector convention) acting on
    /// the z = 0 plane, leaving z as it is.
    static TransformMatrix fromQTransform(const QTransform &t);
    /// translate3d(x, y, z).
    static TransformMatrix translation(double x, double y, double z);
    /// scale3d(x, y, z).
    static TransformMatrix scaling(double x, double y, double z);
    /// rotate3d(x, y, z, degrees) (§12.4): clockwise looking along the axis; an axis of
    /// length 0 is the identity.
    static TransformMatrix rotation(double x, double y, double z, double degrees);
    /// perspective(distance px) (§12.2); `distance` ≤ 0 is the identity (none).
    static TransformMatrix perspective(double distance);
    /// matrix3d(): its 16 values column by column, as CSS writes them.
    static TransformMatrix fromColumns(const std::array<float, 16> &columns);

    TransformMatrix operator*(const TransformMatrix &other) const;
    TransformMatrix &operator*=(const TransformMatrix &other) { return *this = *this * other; }

    /// The matrix flattened onto the z = 0 plane (§6: what a flat parent draws of its
    /// child): the homography taking a point (x, y) of the element's plane to the page, in
    /// Qt's convention; projective (TxProject) when the matrix has perspective.
    QTransform toQTransform() const;

    /// Whether the element's back faces the viewer (§9, backface-visibility): the inverse's
    /// z-to-z component is negative. A singular matrix is not back-facing.
    bool isBackFacing() const;

    /// The component in row `row`, column `column` (0-based).
    double at(int row, int column) const { return m_m[size_t(row * 4 + column)]; }

private:
    double &ref(int row, int column) { return m_m[size_t(row * 4 + column)]; }
    std::array<double, 16> m_m{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}; // row by row
};

} // namespace imprint::render
