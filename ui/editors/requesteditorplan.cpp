// SPDX-License-Identifier: GPL-3.0-or-later
// RequestEditor: the editor's fields into a RunPlan, and a read curl command into the fields.
#include "editors/requesteditor.h"

#include "http/httptoken.h"
#include "http/targeturl.h"

#include "run/runplan.h"

#include "engine/requestheaders.h"
#include "http/curlrequest.h"

#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QTableWidget>

using namespace Qt::StringLiterals;

void RequestEditor::applyCurl(const CurlRequest& command)
{
    const QUrl url(command.url);
    const bool lab = m_labUrl.isValid() && url.port() == m_labUrl.port()
        && (url.host() == QLatin1String("127.0.0.1") || url.host() == QLatin1String("localhost"));
    QString target = command.url;
    if (lab)
        target = url.path(QUrl::FullyEncoded) + (url.hasQuery() ? u"?"_s + url.query(QUrl::FullyEncoded) : QString());
    setRequest(command.method, target, lab);
    m_headers->setRowCount(0);
    for (const auto& [name, value] : command.headers)
        addHeaderRow(QString::fromLatin1(name), QString::fromUtf8(value));
    setBody(QString::fromUtf8(command.body));
    RequestOptions options = m_options;
    options.omittedDefaults.clear();
    const QList<SentHeader> defaults = defaultRequestHeaders(url);
    for (const QByteArray& removed : command.removedHeaders) {
        for (const SentHeader& d : defaults) {
            if (d.name.toLower() == removed && !options.omittedDefaults.contains(removed))
                options.omittedDefaults.append(removed);
        }
    }
    options.followRedirects = command.followRedirects;
    if (command.http2)
        options.http2Allowed = *command.http2;
    setOptions(options);
}

QString RequestEditor::fillPlan(RunPlan& plan) const
{
    RequestSpec& spec = plan.request;
    spec.method = m_method->currentText().trimmed().toUpper();
    if (!isHttpToken(spec.method))
        return tr("The method \"%1\" is not an HTTP method token.").arg(spec.method);
    plan.targetLab = targetsLab();
    const QString target = m_url->text().trimmed();
    if (plan.targetLab) {
        plan.labPath = target.startsWith(u'/') ? target : u"/"_s + target;
    } else {
        if (target.isEmpty())
            return tr("Give the URL to send to, e.g. https://api.example.com/v1/things.");
        // "127.0.0.1:18080/charge" has no scheme: http:// is meant (as curl assumes); hint() says so.
        const QString withScheme = target.contains(u"://"_s) ? target : u"http://"_s + target;
        const TargetUrl::Parsed url = TargetUrl::parse(withScheme);
        if (!url.ok())
            return url.problem;
        spec.url = url.url;
    }
    spec.headers.clear();
    for (int row = 0; row < m_headers->rowCount(); ++row) {
        const QString name = m_headers->item(row, 0) ? m_headers->item(row, 0)->text().trimmed() : QString();
        const QString value = m_headers->item(row, 1) ? m_headers->item(row, 1)->text().trimmed() : QString();
        if (name.isEmpty() && value.isEmpty())
            continue;
        if (!isHttpToken(name))
            return tr("Header row %1: \"%2\" is not a header name.").arg(row + 1).arg(name);
        spec.headers.append({ name.toLatin1(), value.toUtf8() });
    }
    if (!m_bodyFile->text().isEmpty()) {
        QFile file(m_bodyFile->text());
        if (!file.open(QIODevice::ReadOnly))
            return tr("The body file cannot be read: %1").arg(file.errorString());
        spec.body = file.readAll();
    } else {
        spec.body = m_body->toPlainText().toUtf8();
    }
    switch (m_keyMode->currentIndex()) {
    case 1:
        spec.keyMode = IdempotencyKeyMode::None;
        break;
    case 2:
        if (m_keyValue->text().trimmed().isEmpty())
            return tr("Give the idempotency key a value, or let the policy decide.");
        spec.keyMode = IdempotencyKeyMode::Value;
        spec.idempotencyKey = m_keyValue->text().trimmed();
        break;
    default:
        spec.keyMode = IdempotencyKeyMode::Auto;
        break;
    }
    m_options.applyTo(spec, plan.targetLab);
    plan.repeat = m_repeat->value();
    plan.concurrency = m_concurrency->value();
    plan.interval = Millis(m_interval->value());
    return {};
}
