// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessions/jobprogress.h"

#include "sessions/sessiondocument.h"

#include <QObject>
#include <QProgressDialog>

QProgressDialog* showJobProgress(SessionDocument* document, QWidget* window, const QString& label, const QString& title)
{
    auto* dialog = new QProgressDialog(label, QObject::tr("Cancel"), 0, 1000, window);
    dialog->setWindowTitle(title);
    dialog->setMinimumDuration(400);
    dialog->setAutoClose(false);
    dialog->setAutoReset(false);
    QObject::connect(document, &SessionDocument::jobProgress, dialog,
        [dialog](qint64 done, qint64 total) { dialog->setValue(total > 0 ? int(done * 1000 / total) : 0); });
    QObject::connect(dialog, &QProgressDialog::canceled, document, &SessionDocument::cancel);
    QObject::connect(document, &SessionDocument::jobFinished, dialog, &QObject::deleteLater);
    return dialog;
}
