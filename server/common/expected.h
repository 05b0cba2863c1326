#pragma once
// A value or an error, shaped like C++23 std::expected<T, E> (Debian 12's GCC 12 has no
// <expected> and Debian packages no tl-expected). Every layer returns its results through
// it with its own error type: store::ServiceError, render::RenderError, http::HttpResponse.
//
// One deliberate difference from std::expected: an Expected<T, E> converts implicitly
// from an E (not only from Unexpected<E>) when T and E are different types, so a failing
// path reads `return ServiceError{...};`. Switching to std::expected later means wrapping
// those returns in std::unexpected.

#include <type_traits>
#include <utility>
#include <variant>

namespace imprint::common {

/// The error alternative, spelled out (std::unexpected). Use it where T and E are the same
/// type or the conversion would be ambiguous.
template<typename E>
class Unexpected
{
public:
    explicit Unexpected(E error)
        : m_error(std::move(error))
    { }
    const E &error() const & { return m_error; }
    E &&error() && { return std::move(m_error); }

private:
    E m_error;
};

/// Holds a T (success) or an E (failure). Accessing the wrong alternative throws
/// std::bad_variant_access, as a programming error should.
template<typename T, typename E>
class Expected
{
public:
    using value_type = T;
    using error_type = E;

    Expected() requires std::is_default_constructible_v<T> : m_v(std::in_place_index<0>) { }
    Expected(T value)
        : m_v(std::in_place_index<0>, std::move(value))
    { }
    Expected(Unexpected<E> error)
        : m_v(std::in_place_index<1>, std::move(error).error())
    { }
    Expected(E error) requires(!std::is_same_v<T, E>)
        : m_v(std::in_place_index<1>, std::move(error))
    { }

    bool has_value() const { return m_v.index() == 0; }
    explicit operator bool() const { return has_value(); }

    const T &value() const & { return std::get<0>(m_v); }
    T &value() & { return std::get<0>(m_v); }
    T &&value() && { return std::get<0>(std::move(m_v)); }
    const T *operator->() const { return &value(); }
    T *operator->() { return &value(); }
    const T &operator*() const & { return value(); }
    T &operator*() & { return value(); }

    const E &error() const & { return std::get<1>(m_v); }
    E &error() & { return std::get<1>(m_v); }
    E &&error() && { return std::get<1>(std::move(m_v)); }

    /// The value, or `fallback` on failure.
    template<typename U>
    T value_or(U &&fallback) const &
    {
        return has_value() ? value() : T(std::forward<U>(fallback));
    }

    /// The error, or `fallback` on success (as C++23's std::expected::error_or), e.g. the
    /// message of a check that may pass.
    template<typename U>
    E error_or(U &&fallback) const &
    {
        return has_value() ? E(std::forward<U>(fallback)) : error();
    }

private:
    std::variant<T, E> m_v;
};

/// The success value of a call that returns nothing (std::expected<void, E> has no
/// C++20 counterpart without a specialisation; this keeps one template).
struct Done { };

} // namespace imprint::common
