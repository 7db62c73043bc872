// SPDX-License-Identifier: GPL-3.0-or-later
// StepForm, the fields that are more than one key's value: Retry-After (a number of seconds or {ms, form}),
// dribble ({bytes, interval_ms}), headers (Name: value lines) and the body (text, or JSON when ticked).
#include "labview/stepform.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSpinBox>

#include <cmath>

using namespace Qt::StringLiterals;

void StepForm::writeRetryAfter()
{
    const double seconds = m_retryAfter->value();
    if (seconds < 0) {
        set(u"retry_after"_s, QJsonValue(QJsonValue::Undefined));
        return;
    }
    const qint64 ms = std::llround(seconds * 1000.0);
    const QString form = m_retryForm->currentData().toString();
    if (form == u"seconds"_s && ms % 1000 == 0)
        set(u"retry_after"_s, QJsonValue(ms / 1000));
    else
        set(u"retry_after"_s, QJsonObject { { u"ms"_s, ms }, { u"form"_s, form } });
}

void StepForm::writeDribble()
{
    if (m_dribbleBytes->value() == 0)
        set(u"dribble"_s, QJsonValue(QJsonValue::Undefined));
    else
        set(u"dribble"_s, QJsonObject { { u"bytes"_s, m_dribbleBytes->value() }, { u"interval_ms"_s, m_dribbleInterval->value() } });
}

void StepForm::writeHeaders()
{
    if (m_loading)
        return;
    QJsonObject headers;
    const QStringList lines = m_headers->toPlainText().split(u'\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = lines.at(i).trimmed();
        if (line.isEmpty())
            continue;
        const qsizetype colon = line.indexOf(u':');
        if (colon <= 0) {
            // Kept in the field as typed; the step keeps its previous headers until the line is complete.
            m_problem->setText(tr("Headers, line %1: write it as Name: value").arg(i + 1));
            m_problem->show();
            return;
        }
        headers.insert(line.left(colon).trimmed(), line.mid(colon + 1).trimmed());
    }
    m_problem->hide();
    set(u"headers"_s, headers.isEmpty() ? QJsonValue(QJsonValue::Undefined) : QJsonValue(headers));
}

void StepForm::writeBody()
{
    if (m_loading)
        return;
    const QString text = m_body->toPlainText();
    if (!m_bodyIsJson->isChecked()) {
        m_problem->hide();
        m_step.remove(u"json"_s);
        set(u"body"_s, text.isEmpty() ? QJsonValue(QJsonValue::Undefined) : QJsonValue(text));
        return;
    }
    if (text.trimmed().isEmpty()) {
        m_problem->hide();
        m_step.remove(u"body"_s);
        set(u"json"_s, QJsonValue(QJsonValue::Undefined));
        return;
    }
    // Any JSON value, a bare string or number too: parsed as the one element of an array.
    QJsonParseError error;
    const QJsonDocument parsed = QJsonDocument::fromJson(u"["_s.toUtf8() + text.toUtf8() + u"]"_s.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || parsed.array().size() != 1) {
        m_problem->setText(error.error != QJsonParseError::NoError
                ? tr("Body is not JSON yet (%1 at %2); the step keeps its previous body").arg(error.errorString()).arg(error.offset - 1)
                : tr("Body: one JSON value, not a list of them; the step keeps its previous body"));
        m_problem->show();
        return;
    }
    m_problem->hide();
    m_step.remove(u"body"_s);
    set(u"json"_s, parsed.array().first());
}
