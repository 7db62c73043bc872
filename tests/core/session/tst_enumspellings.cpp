// SPDX-License-Identifier: GPL-3.0-or-later
// The one spelling table of each enumeration a session file carries (policy/enumtext.h, engine/enumtext.h)
// against the published schema, resources/schemas/session.schema.json: every enumerator has the spelling
// the schema lists, in the schema's order, the reader finds each spelling back, and nothing else.

#include "engine/enumtext.h"
#include "policy/enumtext.h"
#include "session/format/enumnames.h"
#include "session/format/enumspellings.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

// The schema's enum list for an attempt property, without the null that marks the field optional.
QStringList schemaSpellings(const QString& property)
{
    QFile file(QFINDTESTDATA("../../../resources/schemas/session.schema.json"));
    if (!file.open(QIODevice::ReadOnly))
        return { u"<schema not found>"_s };
    const QJsonObject attempt = QJsonDocument::fromJson(file.readAll())
                                    .object()
                                    .value(u"$defs"_s)
                                    .toObject()
                                    .value(u"attempt"_s)
                                    .toObject()
                                    .value(u"properties"_s)
                                    .toObject();
    QStringList names;
    for (const QJsonValue& v : attempt.value(property).toObject().value(u"enum"_s).toArray()) {
        if (v.isString())
            names << v.toString();
    }
    return names;
}

template<typename E>
QStringList tableSpellings()
{
    QStringList names;
    for (int i = 0; i < EnumText::enumCount<E>(); ++i) {
        const std::string_view text = enumText(E(i));
        names << QString::fromLatin1(text.data(), qsizetype(text.size()));
    }
    return names;
}

template<typename E>
bool readsBack(const EnumSpellings<E>& spellings, std::optional<E> (*lookup)(QByteArrayView))
{
    for (int i = 0; i < EnumText::enumCount<E>(); ++i) {
        const QByteArray text = spellings.name(E(i)).toByteArray();
        if (lookup(text) != std::optional<E>(E(i)) && !(text.isEmpty() && !lookup(text)))
            return false;
        if (spellings.find(text) != std::optional<E>(E(i)))
            return false;
    }
    return !spellings.find("no-such-spelling") && !lookup("no-such-spelling") && spellings.name(E(-1)).isNull()
        && spellings.name(E(EnumText::enumCount<E>())).isNull();
}

} // namespace

class TestEnumSpellings : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void tablesMatchTheSchema_data()
    {
        QTest::addColumn<QStringList>("table");
        QTest::addColumn<QString>("property");
        QTest::newRow("phase_reached") << tableSpellings<AttemptPhase>() << u"phase_reached"_s;
        QTest::newRow("error") << tableSpellings<ErrorClass>() << u"error"_s;
        QTest::newRow("abort_reason") << tableSpellings<AbortReason>() << u"abort_reason"_s;
        QTest::newRow("delay_source") << tableSpellings<DelaySource>() << u"delay_source"_s;
    }
    void tablesMatchTheSchema()
    {
        QFETCH(QStringList, table);
        QFETCH(QString, property);
        QCOMPARE(table, schemaSpellings(property));
    }

    void decisionsAreTheSchemasLessCancelledAndObserved()
    {
        // The schema's "decision" also allows "cancelled", the engine's own end of a run, and "observed", an
        // attempt a client made (retrylab observe/import): neither is a decide() Verdict.
        QStringList schema = schemaSpellings(u"decision"_s);
        QVERIFY(schema.removeOne(u"cancelled"_s));
        QVERIFY(schema.removeOne(u"observed"_s));
        QCOMPARE(tableSpellings<Verdict>(), schema);
    }

    void everySpellingReadsBack()
    {
        QVERIFY(readsBack(EnumSpelling::verdicts(), &EnumNames::verdict));
        QVERIFY(readsBack(EnumSpelling::delaySources(), &EnumNames::delaySource));
        QVERIFY(readsBack(EnumSpelling::finalKinds(), &EnumNames::finalKind));
        QVERIFY(readsBack(EnumSpelling::phases(), &EnumNames::phase));
        QVERIFY(readsBack(EnumSpelling::abortReasons(), &EnumNames::abortReason));
        QVERIFY(readsBack(EnumSpelling::errorClasses(), &EnumNames::errorClass));
    }

    void qstringNamesComeFromTheSameTable()
    {
        QCOMPARE(finalKindName(FinalKind::RetryAfterTooLong), u"retry-after-too-long"_s);
        QVERIFY(finalKindName(FinalKind::None).isNull()); // not final: no name
        QCOMPARE(errorClassNames(), tableSpellings<ErrorClass>());
        QCOMPARE(errorClassFromName(u"connection-lost"_s), std::optional(ErrorClass::ConnectionLost));
        QCOMPARE(errorClassFromName(u"Connection-Lost"_s), std::nullopt);
        QCOMPARE(EnumText::enumCount<FinalKind>(), 13);
        QCOMPARE(finalKindName(FinalKind::CircuitOpen), u"circuit-open"_s); // issue 28: the pipeline's refusals
        QCOMPARE(finalKindName(FinalKind::LimiterFull), u"limiter-full"_s);
    }
};

QTEST_GUILESS_MAIN(TestEnumSpellings)
#include "tst_enumspellings.moc"
