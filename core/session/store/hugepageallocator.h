// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// An allocator for the big, long-lived arrays of a session (the attempt store's chunks): a block of 2 MiB
// or more is aligned to 2 MiB and, on Linux, offered to transparent huge pages. Filling a million
// attempts then takes a few hundred page faults instead of some hundred thousand (perf showed the faults
// at a sixth of opening a 1M-attempt file). Smaller blocks come from malloc as usual.

#include <QtGlobal>

#include <cstdlib>
#include <new>

#ifdef Q_OS_LINUX
#include <sys/mman.h>
#endif

template<typename T>
struct HugePageAllocator
{
    using value_type = T;
    static constexpr size_t kHugePage = size_t(2) << 20;

    HugePageAllocator() = default;
    template<typename U>
    HugePageAllocator(const HugePageAllocator<U>&) noexcept
    {
    }

    T* allocate(size_t n)
    {
        const size_t bytes = n * sizeof(T);
        void* p = nullptr;
        if (bytes >= kHugePage) {
            const size_t rounded = (bytes + kHugePage - 1) & ~(kHugePage - 1);
            p = std::aligned_alloc(kHugePage, rounded);
#ifdef MADV_HUGEPAGE
            if (p)
                madvise(p, rounded, MADV_HUGEPAGE); // advice only: without it the pages are just smaller
#endif
        } else {
            p = std::malloc(bytes);
        }
        if (!p)
            throw std::bad_alloc();
        return static_cast<T*>(p);
    }
    void deallocate(T* p, size_t) noexcept { std::free(p); }

    friend bool operator==(const HugePageAllocator&, const HugePageAllocator&) { return true; }
};
