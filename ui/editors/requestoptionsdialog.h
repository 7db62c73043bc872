// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Edits RequestOptions: each of Retrylab's own headers on or off — with what Qt sends instead for the
// ones Qt always adds — the attempt-id header's use and name, redirects and HTTP/2. Opened with open()
// (no nested event loop); the editor reads options() when it is accepted.

#include "editors/requestoptions.h"

#include <QDialog>

class QButtonGroup;
class QCheckBox;
class QLineEdit;
class QTableWidget;

class RequestOptionsDialog final : public QDialog
{
    Q_OBJECT
public:
    RequestOptionsDialog(const RequestOptions& options, QWidget* parent = nullptr);

    RequestOptions options() const;
    QTableWidget* table() const { return m_table; }

protected:
    void showEvent(QShowEvent* event) override;

private:
    QTableWidget* m_table;
    QButtonGroup* m_attemptId;
    QLineEdit* m_attemptIdHeader;
    QCheckBox* m_redirects;
    QCheckBox* m_http2;
};
