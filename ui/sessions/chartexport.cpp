// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessions/chartexport.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QFileInfo>
#include <QImage>
#include <QLayout>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QWidget>

using namespace Qt::StringLiterals;

namespace ChartExport {

namespace {

constexpr char kControl[] = "retrylabControl";

QString tr(const char* text)
{
    return QCoreApplication::translate("ChartExport", text);
}

void activateLayouts(QWidget* w)
{
    for (QWidget* child : w->findChildren<QWidget*>()) {
        if (child->layout())
            child->layout()->activate();
    }
    if (w->layout())
        w->layout()->activate();
}

// Hides the controls inside VIEW while it lives, and lays the view out again without them.
class ControlsHidden
{
public:
    explicit ControlsHidden(QWidget* view)
        : m_view(view)
    {
        for (QWidget* w : view->findChildren<QWidget*>()) {
            if (isControl(w) && w->isVisibleTo(view)) {
                w->hide();
                m_hidden.append(w);
            }
        }
        activateLayouts(m_view);
    }
    ~ControlsHidden()
    {
        for (QWidget* w : std::as_const(m_hidden))
            w->show();
        activateLayouts(m_view);
    }

private:
    QWidget* m_view;
    QList<QWidget*> m_hidden;
};

int bandHeight(const QWidget* view, const QString& subtitle)
{
    const QFontMetrics fm(view->font());
    return fm.height() * 2 + (subtitle.isEmpty() ? 0 : fm.height()) + 4;
}

void paintBand(QPainter& p, const QWidget* view, const QString& title, const QString& subtitle)
{
    QFont big = view->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.25);
    const QFontMetrics fm(view->font());
    const int margin = fm.height() / 2;
    p.setPen(view->palette().color(QPalette::WindowText));
    p.setFont(big);
    p.drawText(QRect(margin, margin / 2, view->width() - 2 * margin, QFontMetrics(big).height()), Qt::AlignLeft | Qt::AlignVCenter, title);
    if (!subtitle.isEmpty()) {
        p.setFont(view->font());
        p.setPen(view->palette().color(QPalette::PlaceholderText));
        p.drawText(QRect(margin, margin / 2 + QFontMetrics(big).height(), view->width() - 2 * margin, fm.height() + 2),
            Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(subtitle, Qt::ElideRight, view->width() - 2 * margin));
    }
}

QByteArray renderSvg(QWidget* view, const QString& title, const QString& subtitle)
{
    const ControlsHidden hidden(view);
    const int band = bandHeight(view, subtitle);
    const QSize size(view->width(), view->height() + band);
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(title);
    svg.setDescription(subtitle.isEmpty() ? tr("Exported from Retrylab") : subtitle);
    QPainter painter(&svg);
    painter.fillRect(QRect(QPoint(0, 0), size), view->palette().window());
    paintBand(painter, view, title, subtitle);
    view->render(&painter, QPoint(0, band), QRegion(), QWidget::DrawWindowBackground | QWidget::DrawChildren);
    painter.end();
    return buffer.data();
}

} // namespace

void markControl(QWidget* widget)
{
    widget->setProperty(kControl, true);
}

bool isControl(const QWidget* widget)
{
    return widget->property(kControl).toBool();
}

QImage render(QWidget* view, const QString& title, const QString& subtitle, qreal scale)
{
    const ControlsHidden hidden(view);
    const int band = bandHeight(view, subtitle);
    QImage image(QSize(view->width(), view->height() + band) * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(view->palette().window().color());
    QPainter painter(&image);
    paintBand(painter, view, title, subtitle);
    painter.end();
    view->render(&image, QPoint(0, band), QRegion(), QWidget::DrawWindowBackground | QWidget::DrawChildren);
    return image;
}

bool save(QWidget* view, const QString& path, const QString& title, const QString& subtitle, QString* error)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != u"png"_s && suffix != u"svg"_s) {
        if (error)
            *error = tr("Charts are exported as .png or .svg, not \"%1\".").arg(QFileInfo(path).fileName());
        return false;
    }
    QByteArray bytes;
    if (suffix == u"svg"_s) {
        bytes = renderSvg(view, title, subtitle);
    } else {
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        render(view, title, subtitle).save(&buffer, "PNG");
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = tr("%1 could not be written: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace ChartExport
