// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QUrl>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
class QTableWidget;
struct CurlCommand;
struct RunPlan;

// What to send: the built-in lab or a URL, method, headers, body (text or a file), the idempotency key
// (auto / none / a value), how many runs and how many at once. "Paste curl command" fills it in.
class RequestEditor : public QWidget
{
    Q_OBJECT
public:
    explicit RequestEditor(QWidget* parent = nullptr);

    // Where the built-in lab listens; shown in front of the path while the lab is the target.
    void setLabUrl(const QUrl& url);
    // Fills PLAN's request, target, repeat and concurrency; returns a translated problem or empty.
    QString fillPlan(RunPlan& plan) const;

    int repeatCount() const;
    int concurrency() const;
    void setRepeatCount(int count);
    void setRequest(const QString& method, const QString& pathOrUrl, bool targetLab);
    // Fills the editor from a pasted curl command; a URL on 127.0.0.1/localhost at the lab's port keeps
    // the lab as the target.
    void applyCurl(const CurlCommand& command);

Q_SIGNALS:
    void repeatChanged();

private:
    void onTargetChanged();
    void onKeyModeChanged();
    void addHeaderRow(const QString& name = {}, const QString& value = {});
    void chooseBodyFile();
    void pasteCurl();

    QUrl m_labUrl;
    QComboBox* m_target;
    QLabel* m_base;
    QLineEdit* m_url;
    QComboBox* m_method;
    QTableWidget* m_headers;
    QPlainTextEdit* m_body;
    QLineEdit* m_bodyFile;
    QComboBox* m_keyMode;
    QLineEdit* m_keyValue;
    QSpinBox* m_repeat;
    QSpinBox* m_concurrency;
};
