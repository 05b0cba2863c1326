<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>ApiError</name>
    <message numerus="yes">
        <source>Too many attempts. Please wait %n second(s) and try again.</source>
        <translation><numerusform>Too many attempts. Please wait %n second and try again.</numerusform><numerusform>Too many attempts. Please wait %n seconds and try again.</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>The server is busy. Please try again in %n second(s).</source>
        <translation><numerusform>The server is busy. Please try again in %n second.</numerusform><numerusform>The server is busy. Please try again in %n seconds.</numerusform></translation>
    </message>
</context>
<context>
    <name>imprint::gui::KeysModel</name>
    <message numerus="yes">
        <source>in %n minute(s)</source>
        <translation><numerusform>in %n minute</numerusform><numerusform>in %n minutes</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n minute(s) ago</source>
        <translation><numerusform>%n minute ago</numerusform><numerusform>%n minutes ago</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>in %n hour(s)</source>
        <translation><numerusform>in %n hour</numerusform><numerusform>in %n hours</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n hour(s) ago</source>
        <translation><numerusform>%n hour ago</numerusform><numerusform>%n hours ago</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>in %n day(s)</source>
        <translation><numerusform>in %n day</numerusform><numerusform>in %n days</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n day(s) ago</source>
        <translation><numerusform>%n day ago</numerusform><numerusform>%n days ago</numerusform></translation>
    </message>
</context>
<context>
    <name>imprint::gui::KeysTab</name>
    <message numerus="yes">
        <source>%n active key(s)</source>
        <translation><numerusform>%n active key</numerusform><numerusform>%n active keys</numerusform></translation>
    </message>
</context>
<context>
    <name>imprint::gui::StudioTab</name>
    <message numerus="yes">
        <source>Published %n page(s).</source>
        <translation><numerusform>Published %n page.</numerusform><numerusform>Published %n pages.</numerusform></translation>
    </message>
</context>
</TS>
