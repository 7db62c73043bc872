// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// An optional value held on the heap: one pointer, for a field that most values of a long list leave
// empty (a session's runs keep a grouping only when a client's run was observed: 8 bytes a run instead of
// the 64 of std::optional<ObservedGrouping>, in a list of a run per one or two attempts). A value type:
// copying copies the value. It converts to and from std::optional<T> for the code that builds one.

#include <memory>
#include <optional>

template<typename T>
class HeapOptional
{
public:
    HeapOptional() = default;
    HeapOptional(const std::optional<T>& value) { *this = value; }
    HeapOptional(const HeapOptional& other) : m_value(other.m_value ? std::make_unique<T>(*other.m_value) : nullptr) { }
    HeapOptional(HeapOptional&&) noexcept = default;
    HeapOptional& operator=(const HeapOptional& other)
    {
        if (this != &other)
            m_value = other.m_value ? std::make_unique<T>(*other.m_value) : nullptr;
        return *this;
    }
    HeapOptional& operator=(HeapOptional&&) noexcept = default;
    HeapOptional& operator=(const std::optional<T>& value)
    {
        m_value = value ? std::make_unique<T>(*value) : nullptr;
        return *this;
    }
    HeapOptional& operator=(const T& value)
    {
        m_value = std::make_unique<T>(value);
        return *this;
    }

    bool has_value() const { return bool(m_value); }
    explicit operator bool() const { return bool(m_value); }
    const T& operator*() const { return *m_value; }
    T& operator*() { return *m_value; }
    const T* operator->() const { return m_value.get(); }
    T* operator->() { return m_value.get(); }
    void reset() { m_value.reset(); }
    std::optional<T> toOptional() const { return m_value ? std::optional<T>(*m_value) : std::nullopt; }
    operator std::optional<T>() const { return toOptional(); }

    friend bool operator==(const HeapOptional& a, const HeapOptional& b)
    {
        return a.has_value() == b.has_value() && (!a.has_value() || *a == *b);
    }

private:
    std::unique_ptr<T> m_value;
};
