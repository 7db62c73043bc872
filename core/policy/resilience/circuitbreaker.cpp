// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/resilience/circuitbreaker.h"

#include <algorithm>
#include <cmath>

using O = CircuitBreakerOptions;

CircuitBreaker::CircuitBreaker(CircuitBreakerOptions options, Millis epoch)
    : m_options(std::move(options))
    , m_epoch(epoch)
    , m_bucketLength(std::max<qint64>(1, m_options.samplingDuration.count() / std::max(1, m_options.buckets)))
{
    if (m_options.window == O::Window::Count)
        m_ring.assign(size_t(std::max(1, m_options.windowCalls)), false);
}

CircuitBreaker::Ticket CircuitBreaker::admit(Millis now)
{
    advance(now);
    if (m_state == State::Open) {
        if (now < openUntil()) {
            countCall(now);
            return { Admission::Rejected, State::Open, openUntil() - now };
        }
        halfOpen(now); // lazily: this call found the break over (Polly, resilience4j, cockatiel)
    }
    if (m_state == State::HalfOpen) {
        if (m_probesOut < m_options.halfOpenProbes) {
            ++m_probesOut;
            return { Admission::Probe, State::HalfOpen, Millis { 0 } };
        }
        if (m_options.halfOpenCallers == O::HalfOpenCallers::Wait)
            return { Admission::Wait, State::HalfOpen, Millis { 0 } };
        countCall(now);
        return { Admission::Rejected, State::HalfOpen, Millis { 0 } };
    }
    return { Admission::Allowed, State::Closed, Millis { 0 } };
}

void CircuitBreaker::record(const Ticket& ticket, bool failure, Millis now)
{
    if (!ticket.sent())
        return; // a refused or held call has no result of its own
    advance(now);
    count(failure, now);
    switch (m_state) {
    case State::Closed:
        if (m_options.window == O::Window::Consecutive) {
            if (failure && m_consecutive >= m_options.consecutiveFailures)
                open(now);
        } else if ((failure || m_options.judgeAfterSuccess) && trips(window(now))) {
            open(now);
        }
        break;
    case State::HalfOpen:
        halfOpenResult(failure, now);
        break;
    case State::Open:
        break; // counted, but a result never extends or ends a break (Polly 8: CircuitStateController)
    }
}

CircuitBreaker::State CircuitBreaker::state(Millis now)
{
    advance(now);
    return m_state;
}

void CircuitBreaker::advance(Millis now)
{
    if (m_state == State::Open && m_options.transition == O::Transition::Timer && now >= openUntil())
        halfOpen(openUntil()); // opossum: a timer set when it opened
}

void CircuitBreaker::count(bool failure, Millis now)
{
    switch (m_options.window) {
    case O::Window::Consecutive:
        m_consecutive = failure ? m_consecutive + 1 : 0;
        return;
    case O::Window::Count: {
        const size_t size = m_ring.size();
        const int slot = m_ringNext % int(size);
        if (m_ringCounts.calls == int(size)) { // full: the oldest result leaves
            m_ringCounts.failures -= m_ring[size_t(slot)] ? 1 : 0;
            --m_ringCounts.calls;
        }
        m_ring[size_t(slot)] = failure;
        ++m_ringCounts.calls;
        m_ringCounts.failures += failure ? 1 : 0;
        m_ringNext = (slot + 1) % int(size);
        return;
    }
    case O::Window::Time:
        rollTo(now);
        ++m_buckets.back().counts.calls;
        m_buckets.back().counts.failures += failure ? 1 : 0;
        return;
    }
}

void CircuitBreaker::countCall(Millis now)
{
    if (!m_options.countRejected)
        return;
    if (m_options.window == O::Window::Time) {
        rollTo(now);
        ++m_buckets.back().counts.calls;
    } else if (m_options.window == O::Window::Count) {
        count(false, now);
    }
}

void CircuitBreaker::rollTo(Millis now)
{
    if (m_options.bucketStart == O::BucketStart::AtCall) {
        if (m_buckets.empty() || now - m_buckets.back().start >= m_bucketLength)
            m_buckets.push_back({ now, {} });
    } else {
        const qint64 slot = (now - m_epoch).count() / m_bucketLength.count();
        const Millis start = m_epoch + slot * m_bucketLength;
        if (m_buckets.empty() || m_buckets.back().start < start)
            m_buckets.push_back({ start, {} });
    }
    while (!m_buckets.empty() && !bucketLive(m_buckets.front(), now))
        m_buckets.pop_front();
}

bool CircuitBreaker::bucketLive(const Bucket& bucket, Millis now) const
{
    if (m_options.bucketStart == O::BucketStart::AtCall)
        return now - bucket.start < m_options.samplingDuration; // Polly: a bucket lives the sampling duration
    // opossum: the newest `buckets` slots, the one NOW falls in included
    const qint64 nowSlot = (now - m_epoch).count() / m_bucketLength.count();
    const qint64 slot = (bucket.start - m_epoch).count() / m_bucketLength.count();
    return nowSlot - slot < m_options.buckets;
}

CircuitBreaker::Counts CircuitBreaker::window(Millis now) const
{
    switch (m_options.window) {
    case O::Window::Consecutive:
        return { m_consecutive, m_consecutive };
    case O::Window::Count:
        return m_ringCounts;
    case O::Window::Time:
        break;
    }
    Counts sum;
    for (const Bucket& b : m_buckets) {
        if (!bucketLive(b, now))
            continue;
        sum.calls += b.counts.calls;
        sum.failures += b.counts.failures;
    }
    return sum;
}

bool CircuitBreaker::trips(const Counts& counts) const
{
    if (m_options.minimumCallsPerSecond) {
        const double needed = *m_options.minimumCallsPerSecond * double(m_options.samplingDuration.count()) / 1000.0;
        if (double(counts.calls) < needed)
            return false;
    } else {
        int needed = m_options.minimumCalls;
        if (m_options.window == O::Window::Count)
            needed = std::min(needed, m_options.windowCalls); // resilience4j caps it at the window
        if (counts.calls < needed)
            return false;
    }
    return counts.calls > 0 && ratioTrips(counts);
}

bool CircuitBreaker::ratioTrips(const Counts& counts) const
{
    const double failures = double(counts.failures);
    const double limit = m_options.failureRatio * double(counts.calls);
    // Compared as failures against ratio × calls, as cockatiel and opossum do, so 0.1 × 100 is not 10.000…2.
    const double tolerance = 1e-9 * std::max(1.0, limit);
    return m_options.comparator == O::Comparator::AtLeast ? failures >= limit - tolerance : failures > limit + tolerance;
}

void CircuitBreaker::halfOpenResult(bool failure, Millis now)
{
    ++m_probeResults.calls;
    m_probeResults.failures += failure ? 1 : 0;
    if (m_options.halfOpenProbes <= 1 || m_options.window == O::Window::Consecutive) {
        // One probe (Polly, opossum, cockatiel 3): any failure reopens, any success closes.
        if (failure)
            open(now);
        else
            close(now);
        return;
    }
    // resilience4j: the verdict once every permitted call has answered, on their failure rate.
    if (m_probeResults.calls < m_options.halfOpenProbes)
        return;
    if (m_probeResults.failures > 0 && ratioTrips(m_probeResults))
        open(now);
    else
        close(now);
}

void CircuitBreaker::open(Millis now)
{
    double breakMs = double(m_options.breakDuration.count()) * std::pow(m_options.breakGrowth, m_halfOpens);
    if (m_options.maxBreakDuration)
        breakMs = std::min(breakMs, double(m_options.maxBreakDuration->count()));
    m_breakFor = Millis { qint64(std::llround(std::min(breakMs, 864e5))) };
    m_openedAt = now;
    change(now, State::Open, m_breakFor);
    m_state = State::Open;
    m_probesOut = 0;
    m_probeResults = {};
}

void CircuitBreaker::halfOpen(Millis at)
{
    change(at, State::HalfOpen);
    m_state = State::HalfOpen;
    ++m_halfOpens;
    m_probesOut = 0;
    m_probeResults = {};
}

void CircuitBreaker::close(Millis now)
{
    change(now, State::Closed);
    m_state = State::Closed;
    m_halfOpens = 0;
    m_probesOut = 0;
    m_probeResults = {};
    if (m_options.resetOnClose)
        clearWindow();
}

void CircuitBreaker::clearWindow()
{
    m_consecutive = 0;
    std::fill(m_ring.begin(), m_ring.end(), false);
    m_ringNext = 0;
    m_ringCounts = {};
    m_buckets.clear();
}

void CircuitBreaker::change(Millis at, State to, Millis breakFor)
{
    m_changes.append({ at, m_state, to, window(at), breakFor });
}

QString stateName(CircuitBreaker::State state)
{
    switch (state) {
    case CircuitBreaker::State::Closed:
        return QStringLiteral("closed");
    case CircuitBreaker::State::Open:
        return QStringLiteral("open");
    case CircuitBreaker::State::HalfOpen:
        return QStringLiteral("half-open");
    }
    return {};
}

QString admissionName(CircuitBreaker::Admission admission)
{
    switch (admission) {
    case CircuitBreaker::Admission::Allowed:
        return QStringLiteral("allowed");
    case CircuitBreaker::Admission::Probe:
        return QStringLiteral("probe");
    case CircuitBreaker::Admission::Rejected:
        return QStringLiteral("rejected");
    case CircuitBreaker::Admission::Wait:
        return QStringLiteral("wait");
    }
    return {};
}
