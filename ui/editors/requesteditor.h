// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "editors/labroutes.h"
#include "editors/requestoptions.h"
#include "lab/faultscenario.h"
#include "policy/retrypolicy.h"

#include <QPointer>
#include <QUrl>
#include <QWidget>

class CurlPasteDialog;
class ElidedLabel;
class QComboBox;
class QLabel;
class QFormLayout;
class ProxyPanel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
class QTableWidget;
class QToolButton;
struct CurlRequest;
struct RunPlan;

// What to send: the built-in lab (with a picker of the scenario's routes) or a URL, method, headers, body
// (text or a file), the idempotency key (auto / none / a value), how many runs and how many at once, and
// the request options (Retrylab's own headers, the attempt-id header, redirects, HTTP/2). It says at once
// when a lab request matches no route, and "Paste curl command" fills it in from a curl command line.
class RequestEditor : public QWidget
{
    Q_OBJECT
public:
    explicit RequestEditor(QWidget* parent = nullptr);

    // Where the built-in lab listens; shown in front of the path while the lab is the target.
    void setLabUrl(const QUrl& url);
    // The lab's scenario: its routes fill the route picker. A lab request that matches none of the new
    // scenario's routes is replaced by its first route (and the hint says so).
    void setLabScenario(const FaultScenario& scenario);
    // Fills PLAN's request, target, repeat and concurrency; returns a translated problem or empty.
    QString fillPlan(RunPlan& plan) const;
    // What the editor wants the user to know about the request as it stands (no route matches, the URL has
    // no scheme…): the line under the request row; empty when nothing.
    QString hint() const;

    int repeatCount() const;
    int concurrency() const;
    QSpinBox* intervalBox() const { return m_interval; }
    void setRepeatCount(int count);
    void setRequest(const QString& method, const QString& pathOrUrl, bool targetLab);
    void setBody(const QString& body);
    bool targetsLab() const;
    // Send to ▸ Observe a client: Run watches the lab's traffic instead of sending (RunController::observe).
    bool observesClient() const; // either way of observing
    void setObservesClient(bool observe);
    // Send to ▸ Observe a client as its proxy: the lab is the client's HTTP(S) proxy (issue 31 §3).
    bool observesAsProxy() const;
    void setObservesAsProxy(bool proxy);
    ProxyPanel* proxyPanel() const { return m_proxyPanel; }
    // Fills the editor from a read curl command; a URL on 127.0.0.1/localhost at the lab's port keeps the
    // lab as the target.
    void applyCurl(const CurlRequest& command);
    void pickRoute(int index); // one of LabRoutes::samples() of the scenario
    const QList<RouteSample>& routes() const { return m_routes; }

    RequestOptions options() const { return m_options; }
    void setOptions(const RequestOptions& options);
    CurlPasteDialog* curlDialog() const; // while open
    void pasteCurl(); // opens the dialog with the last pasted text

Q_SIGNALS:
    void repeatChanged();
    void hintChanged(const QString& hint);
    // The pasted command's --retry options and timeouts, as the curl preset (the user asked for it).
    void policyFromCurl(const RetryPolicy& policy, const QString& label);

private:
    void onTargetChanged();
    void onKeyModeChanged();
    void addHeaderRow(const QString& name = {}, const QString& value = {});
    void chooseBodyFile();
    void editOptions();
    void updateHint();
    void updateOptionsSummary();

    QUrl m_labUrl;
    FaultScenario m_scenario;
    QList<RouteSample> m_routes;
    RequestOptions m_options;
    QString m_scenarioNote; // "Request set to … , the first route of …" after a scenario change
    QString m_lastCurlText;
    QPointer<CurlPasteDialog> m_curlDialog;
    QComboBox* m_target;
    QComboBox* m_route;
    QLabel* m_routeLabel;
    ElidedLabel* m_base;
    QLineEdit* m_url;
    QComboBox* m_method;
    QLabel* m_hint;
    ProxyPanel* m_proxyPanel;
    QFormLayout* m_form = nullptr;
    QTableWidget* m_headers;
    QLabel* m_sent;
    QToolButton* m_optionsButton;
    QPlainTextEdit* m_body;
    QLineEdit* m_bodyFile;
    QComboBox* m_keyMode;
    QLineEdit* m_keyValue;
    QSpinBox* m_repeat;
    QSpinBox* m_concurrency;
    QSpinBox* m_interval; // ms between run starts, 0: as fast as the concurrency allows
};
