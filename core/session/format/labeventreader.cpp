// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/format/labeventreader.h"

#include "json/jsonpullreader.h"
#include "session/store/labeventstore.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace {
QString tr(const char* text) { return QCoreApplication::translate("session", text); }
}

// Lax reads for a lab event's fields, as labEventFromJson reads them from a QJsonObject: a value of another
// type (or a number with a fraction, or out of range) reads as the default, 0 or "".
bool LabEventReader::laxInteger(qint64* out)
{
    *out = 0;
    if (m_in.peek() != JsonPullReader::Kind::Number) {
        m_in.skipValue();
        return !m_in.hasError();
    }
    QByteArrayView text;
    if (!m_in.readNumberView(&text))
        return false;
    bool ok = false;
    if (text.size() <= 18) { // exact (the QJsonValue path went through a double)
        const qint64 v = text.toLongLong(&ok);
        if (ok) {
            *out = v;
            return true;
        }
    }
    const double d = text.toDouble(&ok);
    if (!ok) {
        m_in.fail(tr("malformed number \"%1\"").arg(QLatin1StringView(text)));
        return false;
    }
    if (std::isfinite(d) && std::trunc(d) == d && std::abs(d) < 9.2e18)
        *out = qint64(d);
    return true;
}

bool LabEventReader::laxText(QByteArray& out)
{
    out.resize(0);
    if (m_in.peek() != JsonPullReader::Kind::String) {
        m_in.skipValue();
        return !m_in.hasError();
    }
    return m_in.readUtf8Into(out);
}

bool LabEventReader::read(qsizetype index, LabEventStore& events, QString* path, QString* message)
{
    const auto fail = [&](QString at, QString why) {
        *path = std::move(at);
        *message = std::move(why);
        return false;
    };
    const auto itemPath = [index] { return u"$.lab_events[%1]"_s.arg(index); };
    enum Text { Kind, Method, Path, Route, Step, AttemptId, Key, Detail };
    for (QByteArray& t : m_texts)
        t.resize(0);
    LabEventStore::Fields f;
    if (m_in.peek() == JsonPullReader::Kind::Object) {
        m_in.enterObject();
        QByteArrayView key;
        while (m_in.nextKeyView(&key)) {
            bool ok = true;
            qint64 v = 0;
            if (key == "kind")
                ok = laxText(m_texts[Kind]);
            else if (key == "at_ms")
                ok = laxInteger(&f.atMs);
            else if (key == "connection")
                ok = laxInteger(&v), f.connectionId = quint64(v);
            else if (key == "request")
                ok = laxInteger(&v), f.requestId = quint64(v);
            else if (key == "method")
                ok = laxText(m_texts[Method]);
            else if (key == "path")
                ok = laxText(m_texts[Path]);
            else if (key == "route")
                ok = laxText(m_texts[Route]);
            else if (key == "step")
                ok = laxText(m_texts[Step]);
            else if (key == "status")
                ok = laxInteger(&v), f.status = v >= std::numeric_limits<int>::min() && v <= std::numeric_limits<int>::max() ? int(v) : 0;
            else if (key == "attempt_id")
                ok = laxText(m_texts[AttemptId]);
            else if (key == "idempotency_key")
                ok = laxText(m_texts[Key]);
            else if (key == "applied")
                f.applied = m_in.peek() == JsonPullReader::Kind::Bool ? m_in.readBool().value_or(false) : (m_in.skipValue(), false);
            else if (key == "detail")
                ok = laxText(m_texts[Detail]);
            else
                m_in.skipValue();
            if (!ok || m_in.hasError())
                return fail(itemPath(), QString());
        }
    } else {
        m_in.skipValue(); // not an object: no kind
    }
    if (m_in.hasError())
        return fail(itemPath(), QString());
    bool found = false;
    for (int k = 0; k <= int(LabEvent::Kind::Tunnel) && !found; ++k) {
        if (LabEvent::kindName(LabEvent::Kind(k)) == QLatin1StringView(m_texts[Kind])) {
            f.kind = LabEvent::Kind(k);
            found = true;
        }
    }
    if (!found)
        return fail(u"$.lab_events[%1].kind"_s.arg(index), tr("unknown lab event kind \"%1\"").arg(QString::fromUtf8(m_texts[Kind])));
    // The method is kept as Latin-1 bytes: a UTF-8 one (never seen from a client) is narrowed as before.
    const QByteArray& method = m_texts[Method];
    if (std::any_of(method.begin(), method.end(), [](char c) { return uchar(c) >= 0x80; }))
        m_texts[Method] = QString::fromUtf8(method).toLatin1();
    f.method = m_texts[Method];
    f.path = m_texts[Path];
    f.route = m_texts[Route];
    f.stepKind = m_texts[Step];
    f.attemptId = m_texts[AttemptId];
    f.idempotencyKey = m_texts[Key];
    f.detail = m_texts[Detail];
    events.append(f);
    return true;
}
