// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// "Paste curl command": the pasted text is read as you type (CurlRequestParser), with what each option
// becomes or why it is not applied; OK stays disabled while the command cannot be read, so an error never
// closes the dialog and loses the text. When the command has --retry options or timeouts, the curl preset
// can be loaded with them. Opened with open() (no nested event loop).

#include "http/curlrequest.h"

#include <QDialog>
#include <QTimer>

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QPlainTextEdit;
class QTextBrowser;

class CurlPasteDialog final : public QDialog
{
    Q_OBJECT
public:
    explicit CurlPasteDialog(const QString& text, QWidget* parent = nullptr);

    QString text() const;
    void setText(const QString& text);
    // The command as last read (reread() runs 150 ms after typing stops, and before OK is honoured).
    const CurlRequest& request() const { return m_request; }
    bool loadCurlPreset() const;
    bool canAccept() const;
    QLabel* status() const { return m_status; }
    QCheckBox* presetBox() const { return m_preset; }
    QTextBrowser* notes() const { return m_notes; }

    void reread();
    void accept() override;

private:
    QPlainTextEdit* m_text;
    QLabel* m_status;
    QTextBrowser* m_notes;
    QCheckBox* m_preset;
    QDialogButtonBox* m_buttons;
    QTimer m_timer;
    CurlRequest m_request;
    bool m_presetOffered = false;
};
