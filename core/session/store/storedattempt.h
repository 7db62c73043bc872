// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One attempt of an AttemptStore read field by field: what views and exports read instead of the packed
// row. Absent values are std::nullopt, never the store's sentinels, and the store's layout stays inside
// the store. Cheap to make (a pointer to the row's hot part); texts are views of the store's pool, valid
// while the store is. The cold facts (Retry-After, a client's wait, throttle waits) are read on demand.

#include "session/store/attemptstore.h"

#include <optional>

class StoredAttempt
{
public:
    StoredAttempt(const AttemptStore& store, qsizetype row)
        : m_store(&store)
        , m_hot(&store.hot(row))
        , m_row(row)
    {
    }

    // The moments an attempt can reach, in order (the `queued` one only when it waited for a connection).
    enum class Moment { Scheduled, Queued, Started, Connecting, TlsDone, RequestSent, HeadersReceived, FirstByte, Finished };

    qsizetype row() const { return m_row; }
    const AttemptStore& store() const { return *m_store; }
    int runId() const { return m_hot->runId; }
    int index() const { return m_hot->index; }

    std::optional<MonoTime> at(Moment m) const { return time(m_hot->at[int(m)]); }
    std::optional<MonoTime> scheduled() const { return at(Moment::Scheduled); }
    std::optional<MonoTime> started() const { return at(Moment::Started); }
    std::optional<MonoTime> finished() const { return at(Moment::Finished); }
    // When it began: its start, or when it was due for one that never started.
    std::optional<MonoTime> began() const { return started() ? started() : scheduled(); }
    std::optional<MonoTime> duration() const
    {
        const std::optional<MonoTime> from = started();
        const std::optional<MonoTime> to = finished();
        if (!from || !to || *to < *from)
            return std::nullopt;
        return *to - *from;
    }
    AttemptPhase phaseReached() const { return AttemptPhase(m_hot->phaseReached); }

    std::optional<int> status() const { return m_hot->status >= 0 ? std::optional<int>(m_hot->status) : std::nullopt; }
    std::optional<ErrorClass> error() const
    {
        return m_hot->error >= 0 ? std::optional<ErrorClass>(ErrorClass(m_hot->error)) : std::nullopt;
    }
    AbortReason abortReason() const { return AbortReason(m_hot->abortReason); }
    bool connectionReused() const { return m_hot->connectionReused; }

    // The engine's verdict; none for a cancelled attempt or a client's observed one (nobody here decided).
    std::optional<Verdict> verdict() const
    {
        return m_hot->verdict >= 0 ? std::optional<Verdict>(Verdict(m_hot->verdict)) : std::nullopt;
    }
    bool decided() const { return m_hot->verdict >= 0; }
    bool observed() const { return m_hot->observed; } // a client's attempt the lab saw
    FinalKind finalKind() const { return FinalKind(m_hot->finalKind); }
    std::optional<Millis> delay() const { return millis(m_hot->delayMs); } // the decided wait (none: undecided)
    DelaySource delaySource() const { return DelaySource(m_hot->delaySource); }

    QByteArrayView method() const { return text(m_hot->method); }
    QByteArrayView url() const { return text(m_hot->url); }
    quint32 urlId() const { return m_hot->url; } // equal ids: equal URLs (a pool interns each text once)
    QByteArrayView attemptId() const { return text(m_hot->attemptId); }
    QByteArrayView idempotencyKey() const { return text(m_hot->idempotencyKey); }
    QByteArrayView reason() const { return text(m_hot->reason); }

    bool hasRateLimitFields() const { return m_hot->rateLimitHeaders != 0; }
    HttpHeaderList rateLimitFields() const { return m_store->headers(m_hot->rateLimitHeaders); }
    // The answer's field NAME (case-insensitive), the first of that name; null when absent.
    QByteArrayView responseHeader(QByteArrayView name) const
    {
        const quint32 block = m_hot->responseHeaders;
        for (int i = 0; i < m_store->headerCount(block); ++i) {
            if (m_store->headerName(block, i).compare(name, Qt::CaseInsensitive) == 0)
                return m_store->headerValue(block, i);
        }
        return {};
    }

    // Cold facts, read from the attempt's cold part.
    std::optional<MonoTime> clientWait() const { return time(cold().clientWaitNs); } // observed: before it
    std::optional<Millis> askedFor() const { return millis(cold().askedForMs); } // observed: by the last answer
    QByteArrayView askedBy() const { return text(cold().askedBy); }
    Millis throttleWait() const { return Millis(cold().throttleWaitMs); } // held back by the host throttle
    // A call the pipeline refused (never sent), and when a call began waiting for a half-open verdict.
    bool refused() const { return m_hot->coldRow && cold().refusedBy >= 0; }
    std::optional<StrategyRefusal> refusal() const
    {
        if (!refused())
            return std::nullopt;
        const PackedAttemptCold c = cold();
        return StrategyRefusal { StrategyRefusal::By(c.refusedBy), QString::fromUtf8(text(c.refusedScope)),
            CircuitBreaker::State(c.refusedState), Millis(c.refusedRetryInMs) };
    }
    std::optional<MonoTime> verdictWait() const { return time(cold().verdictWaitNs); }
    // A copy of a hedged request: why it went and whether its answer won.
    std::optional<HedgeFacts> hedge() const
    {
        if (!m_hot->coldRow)
            return std::nullopt;
        const PackedAttemptCold c = cold();
        if (c.hedgeTrigger <= 0)
            return std::nullopt;
        return HedgeFacts { HedgeFacts::Trigger(c.hedgeTrigger), c.hedgeWon };
    }

    AttemptRecord record() const { return m_store->record(m_row); } // the whole record (allocates)

private:
    static std::optional<MonoTime> time(qint64 ns)
    {
        return ns == PackedAttemptHot::kUnset ? std::nullopt : std::optional<MonoTime>(MonoTime(ns));
    }
    static std::optional<Millis> millis(qint64 ms)
    {
        return ms == PackedAttemptHot::kUnset ? std::nullopt : std::optional<Millis>(Millis(ms));
    }
    QByteArrayView text(quint32 id) const { return m_store->strings().view(id); }
    PackedAttemptCold cold() const { return m_store->cold(*m_hot); }

    const AttemptStore* m_store;
    const PackedAttemptHot* m_hot;
    qsizetype m_row;
};
