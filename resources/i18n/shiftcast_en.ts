<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>AskDialog</name>
    <message numerus="yes">
        <source>Goes to %n teachers on LINE: one message each of the monthly quota.</source>
        <translation>
            <numerusform>Goes to %n teacher on LINE: one message of the monthly quota.</numerusform>
            <numerusform>Goes to %n teachers on LINE: one message each of the monthly quota.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> days before the deadline</source>
        <translation>
            <numerusform> day before the deadline</numerusform>
            <numerusform> days before the deadline</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>AvailabilityDialog</name>
    <message numerus="yes">
        <source>Asked %n teachers.</source>
        <translation>
            <numerusform>Asked %n teacher.</numerusform>
            <numerusform>Asked %n teachers.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Send the request again to the %n teachers who have not answered? Each on LINE costs one LINE message; an e-mail costs none.</source>
        <translation>
            <numerusform>Send the request again to the %n teacher who has not answered? On LINE it costs one LINE message; an e-mail costs none.</numerusform>
            <numerusform>Send the request again to the %n teachers who have not answered? Each on LINE costs one LINE message; an e-mail costs none.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Reminded %n teachers.</source>
        <translation>
            <numerusform>Reminded %n teacher.</numerusform>
            <numerusform>Reminded %n teachers.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Entered %n days for {0}.</source>
        <translation>
            <numerusform>Entered %n day for {0}.</numerusform>
            <numerusform>Entered %n days for {0}.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CsvActions</name>
    <message numerus="yes">
        <source>%n rows written to {0}</source>
        <translation>
            <numerusform>%n row written to {0}</numerusform>
            <numerusform>%n rows written to {0}</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CsvProblemsDialog</name>
    <message numerus="yes">
        <source>The {0} file has %n problems. Nothing was imported; fix these lines and import the file again.</source>
        <translation>
            <numerusform>The {0} file has %n problem. Nothing was imported; fix this line and import the file again.</numerusform>
            <numerusform>The {0} file has %n problems. Nothing was imported; fix these lines and import the file again.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DeliveriesView</name>
    <message numerus="yes">
        <source>Send all %n dead letters again now, each with a fresh retry budget?</source>
        <translation>
            <numerusform>Send the %n dead letter again now, with a fresh retry budget?</numerusform>
            <numerusform>Send all %n dead letters again now, each with a fresh retry budget?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n dead letters are queued again.</source>
        <translation>
            <numerusform>%n dead letter is queued again.</numerusform>
            <numerusform>%n dead letters are queued again.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FriendsDialog</name>
    <message numerus="yes">
        <source>Reading the names of %n friends…</source>
        <translation>
            <numerusform>Reading the name of %n friend…</numerusform>
            <numerusform>Reading the names of %n friends…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n friends. Pick the teacher and press Use this friend.</source>
        <translation>
            <numerusform>%n friend. Pick the teacher and press Use this friend.</numerusform>
            <numerusform>%n friends. Pick the teacher and press Use this friend.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>InboxWindow</name>
    <message numerus="yes">
        <source>The computer sleeps: Shiftcast&apos;s sender is stopped, and the relay sent %n messages in its place. Wake the computer to see them in Deliveries.</source>
        <translation>
            <numerusform>The computer sleeps: Shiftcast&apos;s sender is stopped, and the relay sent %n message in its place. Wake the computer to see it in Deliveries.</numerusform>
            <numerusform>The computer sleeps: Shiftcast&apos;s sender is stopped, and the relay sent %n messages in its place. Wake the computer to see them in Deliveries.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PublishView</name>
    <message numerus="yes">
        <source>%n messages</source>
        <translation>
            <numerusform>%n message</numerusform>
            <numerusform>%n messages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{0} — an update: %n changed cells are highlighted</source>
        <translation>
            <numerusform>{0} — an update: %n changed cell is highlighted</numerusform>
            <numerusform>{0} — an update: %n changed cells are highlighted</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>LINE&apos;s monthly quota would not cover this: %n messages left, this publication needs {0}. LINE will refuse it until the quota resets or is raised.</source>
        <translation>
            <numerusform>LINE&apos;s monthly quota would not cover this: %n message left, this publication needs {0}. LINE will refuse it until the quota resets or is raised.</numerusform>
            <numerusform>LINE&apos;s monthly quota would not cover this: %n messages left, this publication needs {0}. LINE will refuse it until the quota resets or is raised.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n draft shifts will be confirmed first.</source>
        <translation>
            <numerusform>%n draft shift will be confirmed first.</numerusform>
            <numerusform>%n draft shifts will be confirmed first.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n cells changed since revision {0}; they are highlighted in the image.</source>
        <translation>
            <numerusform>%n cell changed since revision {0}; it is highlighted in the image.</numerusform>
            <numerusform>%n cells changed since revision {0}; they are highlighted in the image.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>It costs %n messages of LINE&apos;s monthly quota{0}.</source>
        <translation>
            <numerusform>It costs %n message of LINE&apos;s monthly quota{0}.</numerusform>
            <numerusform>It costs %n messages of LINE&apos;s monthly quota{0}.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Revision {0} is published and on its way to the LINE group and by e-mail (%n teachers).</source>
        <translation>
            <numerusform>Revision {0} is published and on its way to the LINE group and by e-mail (%n teacher).</numerusform>
            <numerusform>Revision {0} is published and on its way to the LINE group and by e-mail (%n teachers).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Each teacher&apos;s own month: %n messages.</source>
        <translation>
            <numerusform>Each teacher&apos;s own month: %n message.</numerusform>
            <numerusform>Each teacher&apos;s own month: %n messages.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RosterEditor</name>
    <message numerus="yes">
        <source>Copied to %n days as drafts.</source>
        <translation>
            <numerusform>Copied to %n day as a draft.</numerusform>
            <numerusform>Copied to %n days as drafts.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Confirmed %n shifts.</source>
        <translation>
            <numerusform>Confirmed %n shift.</numerusform>
            <numerusform>Confirmed %n shifts.</numerusform>
        </translation>
    </message>
</context>
</TS>
