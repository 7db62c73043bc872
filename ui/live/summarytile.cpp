// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/summarytile.h"

#include <QLabel>
#include <QVBoxLayout>

SummaryTile::SummaryTile(const QString& caption, QWidget* parent)
    : QFrame(parent)
    , m_caption(new QLabel(caption))
    , m_value(new QLabel(QStringLiteral("–")))
    , m_detail(new QLabel)
{
    setFrameShape(QFrame::StyledPanel);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
    m_caption->setForegroundRole(QPalette::PlaceholderText);
    QFont big = m_value->font();
    big.setPointSizeF(big.pointSizeF() * 2.0);
    big.setBold(true);
    m_value->setFont(big);
    m_value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detail->setWordWrap(true);
    m_detail->setForegroundRole(QPalette::PlaceholderText);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(14, 10, 14, 10);
    layout->setSpacing(2);
    layout->addWidget(m_caption);
    layout->addWidget(m_value);
    layout->addWidget(m_detail);
    layout->addStretch(1);
}

void SummaryTile::setValue(const QString& value, const QString& detail)
{
    m_value->setText(value);
    m_detail->setText(detail);
}

void SummaryTile::setValueColor(const QColor& color)
{
    if (!color.isValid()) {
        m_value->setPalette(QPalette());
        return;
    }
    QPalette p = m_value->palette();
    p.setColor(QPalette::WindowText, color);
    p.setColor(QPalette::Text, color); // a selectable label paints with Text
    m_value->setPalette(p);
}

QString SummaryTile::value() const
{
    return m_value->text();
}

QString SummaryTile::detail() const
{
    return m_detail->text();
}
