// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessions/chartexport.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QWidget>

using namespace Qt::StringLiterals;

namespace ChartExport {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ChartExport", text);
}

QByteArray renderSvg(QWidget* view, const QString& title)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(view->size());
    svg.setViewBox(QRect(QPoint(0, 0), view->size()));
    svg.setTitle(title);
    svg.setDescription(tr("Exported from Retrylab"));
    QPainter painter(&svg);
    view->render(&painter, QPoint(), QRegion(), QWidget::DrawWindowBackground | QWidget::DrawChildren);
    painter.end();
    return buffer.data();
}

QByteArray renderPng(QWidget* view)
{
    constexpr qreal scale = 2.0;
    QImage image(view->size() * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(view->palette().window().color());
    view->render(&image, QPoint(), QRegion(), QWidget::DrawWindowBackground | QWidget::DrawChildren);
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return buffer.data();
}

} // namespace

bool save(QWidget* view, const QString& path, const QString& title, QString* error)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != u"png"_s && suffix != u"svg"_s) {
        if (error)
            *error = tr("Charts are exported as .png or .svg, not \"%1\".").arg(QFileInfo(path).fileName());
        return false;
    }
    const QByteArray bytes = suffix == u"svg"_s ? renderSvg(view, title) : renderPng(view);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = tr("%1 could not be written: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

}
