// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The progress dialog of a SessionDocument job (reading a session, off the GUI thread): it follows the job's
// progress, cancels it, and goes when the job finishes. Window-modal, never a nested event loop.

#include <QString>

class QProgressDialog;
class QWidget;
class SessionDocument;

QProgressDialog* showJobProgress(SessionDocument* document, QWidget* window, const QString& label, const QString& title);
