// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/outcomebars.h"

#include <QPainter>

namespace {
int rowHeight(const QFontMetrics& fm)
{
    return fm.height() + 10;
}
} // namespace

OutcomeBars::OutcomeBars(QWidget* parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

QString OutcomeBars::outcomeLabel(FinalKind kind)
{
    switch (kind) {
    case FinalKind::None:
        return tr("Running");
    case FinalKind::Success:
        return tr("Succeeded");
    case FinalKind::RateLimited:
        return tr("Rate limited (429)");
    case FinalKind::ServerError:
        return tr("Server error (5xx)");
    case FinalKind::ClientError:
        return tr("Client error (4xx)");
    case FinalKind::Network:
        return tr("Network error");
    case FinalKind::Deadline:
        return tr("Deadline reached");
    case FinalKind::BudgetExhausted:
        return tr("Retry budget exhausted");
    case FinalKind::RetryAfterTooLong:
        return tr("Retry-After too long");
    case FinalKind::BodyNotRewindable:
        return tr("Body not rewindable");
    case FinalKind::Cancelled:
        return tr("Cancelled");
    }
    return {};
}

void OutcomeBars::setOutcomes(const QList<QPair<FinalKind, int>>& outcomes)
{
    if (outcomes == m_outcomes)
        return;
    const bool grew = outcomes.size() != m_outcomes.size();
    m_outcomes = outcomes;
    if (grew)
        updateGeometry();
    update();
}

QSize OutcomeBars::sizeHint() const
{
    return QSize(400, std::max<int>(1, int(m_outcomes.size())) * rowHeight(fontMetrics()) + 4);
}

QSize OutcomeBars::minimumSizeHint() const
{
    return QSize(200, sizeHint().height());
}

void OutcomeBars::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const ChartPalette palette = ChartPalette::fromPalette(this->palette());
    const QFontMetrics fm = fontMetrics();
    const int rh = rowHeight(fm);
    int total = 0;
    int labelWidth = 0;
    for (const auto& [kind, count] : m_outcomes) {
        total += count;
        labelWidth = std::max(labelWidth, fm.horizontalAdvance(outcomeLabel(kind)));
    }
    if (m_outcomes.isEmpty()) {
        p.setPen(this->palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignLeft | Qt::AlignVCenter, tr("No run has finished yet"));
        return;
    }
    const int numberWidth = fm.horizontalAdvance(QStringLiteral("00000 (100%)")) + 12;
    const int barLeft = labelWidth + 16;
    const int barMax = std::max(20, width() - barLeft - numberWidth);
    int y = 2;
    for (const auto& [kind, count] : m_outcomes) {
        const double share = total ? double(count) / total : 0.0;
        p.setPen(this->palette().color(QPalette::WindowText));
        p.drawText(QRect(0, y, labelWidth, rh), Qt::AlignVCenter | Qt::AlignLeft, outcomeLabel(kind));
        const QColor color = kind == FinalKind::Success ? palette.success
            : kind == FinalKind::Cancelled              ? palette.mutedText
            : kind == FinalKind::RateLimited            ? palette.serverWait
                                                        : palette.failure;
        const QRectF bar(barLeft, y + 4, std::max(2.0, barMax * share), rh - 8);
        p.setPen(Qt::NoPen);
        p.setBrush(color);
        p.drawRoundedRect(bar, 3, 3);
        p.setPen(this->palette().color(QPalette::WindowText));
        p.drawText(QRect(int(bar.right()) + 8, y, numberWidth, rh), Qt::AlignVCenter | Qt::AlignLeft,
                   tr("%1 (%2%)").arg(count).arg(share * 100.0, 0, 'f', 0));
        y += rh;
    }
}
