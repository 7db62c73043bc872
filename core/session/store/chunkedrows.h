// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Rows of a trivially copyable type in fixed-size chunks: appending never moves or copies what is held (no
// doubling peak, no slack beyond the last chunk), and a reference to a row stays valid while more are
// appended. What the packed stores of a live view (lab events, runs, waits) keep their rows in.

#include <QtGlobal>

#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

template <typename Row, qsizetype RowsPerChunk>
class ChunkedRows
{
    static_assert(std::is_trivially_copyable_v<Row>, "rows are packed values");
    static_assert(RowsPerChunk > 0);

public:
    ChunkedRows() = default;
    ChunkedRows(ChunkedRows&&) noexcept = default;
    ChunkedRows& operator=(ChunkedRows&&) noexcept = default;
    ChunkedRows(const ChunkedRows& other) { *this = other; }
    ChunkedRows& operator=(const ChunkedRows& other)
    {
        if (this == &other)
            return *this;
        clear();
        for (qsizetype i = 0; i < other.m_size; ++i)
            append(other[i]);
        return *this;
    }

    qsizetype size() const { return m_size; }
    bool isEmpty() const { return m_size == 0; }
    const Row& operator[](qsizetype i) const { return m_chunks[size_t(i / RowsPerChunk)][size_t(i % RowsPerChunk)]; }
    Row& operator[](qsizetype i) { return m_chunks[size_t(i / RowsPerChunk)][size_t(i % RowsPerChunk)]; }

    Row& append(const Row& row)
    {
        if (m_size == qsizetype(m_chunks.size()) * RowsPerChunk)
            m_chunks.push_back(std::make_unique_for_overwrite<Row[]>(size_t(RowsPerChunk)));
        Row& slot = m_chunks.back()[size_t(m_size % RowsPerChunk)];
        slot = row;
        ++m_size;
        return slot;
    }
    void clear()
    {
        m_chunks.clear();
        m_size = 0;
    }
    qsizetype memoryBytes() const
    {
        return qsizetype(m_chunks.size()) * RowsPerChunk * qsizetype(sizeof(Row))
            + qsizetype(m_chunks.capacity() * sizeof(m_chunks[0]));
    }

private:
    std::vector<std::unique_ptr<Row[]>> m_chunks;
    qsizetype m_size = 0;
};

// Read-only iteration by value over a packed store that rebuilds row I with at(I): for (const Value& v :
// store) binds each rebuilt value.
template <typename Store, typename Value>
class RebuiltIterator
{
public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Value;
    using difference_type = qsizetype;
    using pointer = void;
    using reference = Value;
    RebuiltIterator() = default;
    RebuiltIterator(const Store* store, qsizetype i) : m_store(store), m_i(i) { }
    Value operator*() const { return m_store->at(m_i); }
    RebuiltIterator& operator++()
    {
        ++m_i;
        return *this;
    }
    RebuiltIterator operator++(int)
    {
        RebuiltIterator before = *this;
        ++m_i;
        return before;
    }
    friend bool operator==(const RebuiltIterator& a, const RebuiltIterator& b) { return a.m_i == b.m_i; }

private:
    const Store* m_store = nullptr;
    qsizetype m_i = 0;
};

// An optional duration (moment or wait) in a packed row: its count, or kUnsetCount when there is none
// (the same sentinel as PackedAttempt::kUnset).
inline constexpr qint64 kUnsetCount = std::numeric_limits<qint64>::min();

template <typename Duration>
qint64 countOrUnset(const std::optional<Duration>& value)
{
    return value ? qint64(value->count()) : kUnsetCount;
}

template <typename Duration>
std::optional<Duration> unlessUnset(qint64 count)
{
    return count == kUnsetCount ? std::nullopt : std::optional<Duration>(Duration(count));
}
