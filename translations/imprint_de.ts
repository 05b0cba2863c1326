<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
<context>
    <name>ApiError</name>
    <message>
        <source>The server at %1 sent an answer the console does not understand. Is this an Imprint server?</source>
        <translation>Der Server unter %1 hat eine Antwort gesendet, die die Konsole nicht versteht. Ist das ein Imprint-Server?</translation>
    </message>
    <message>
        <source>The server at %1 could not be reached. Check the address and that the server is running.</source>
        <translation>Der Server unter %1 ist nicht erreichbar. Prüfen Sie die Adresse und ob der Server läuft.</translation>
    </message>
    <message>
        <source>The server at %1 did not answer in time. Please try again.</source>
        <translation>Der Server unter %1 hat nicht rechtzeitig geantwortet. Bitte versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>A secure connection to %1 could not be established.</source>
        <translation>Es konnte keine sichere Verbindung zu %1 hergestellt werden.</translation>
    </message>
    <message>
        <source>The server at %1 could not be reached (%2).</source>
        <translation>Der Server unter %1 ist nicht erreichbar (%2).</translation>
    </message>
    <message>
        <source>The server did not accept the request.</source>
        <translation>Der Server hat die Anfrage nicht angenommen.</translation>
    </message>
    <message>
        <source>The server did not accept the request: %1</source>
        <translation>Der Server hat die Anfrage nicht angenommen: %1</translation>
    </message>
    <message>
        <source>The email address or password is not correct.</source>
        <translation>E-Mail-Adresse oder Passwort ist nicht korrekt.</translation>
    </message>
    <message>
        <source>Your session has expired. Please sign in again.</source>
        <translation>Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.</translation>
    </message>
    <message>
        <source>The image is larger than your plan allows.</source>
        <translation>Das Bild ist größer, als Ihr Tarif erlaubt.</translation>
    </message>
    <message>
        <source>You need the owner or admin role to do this.</source>
        <translation>Dafür benötigen Sie die Rolle Eigentümer oder Administrator.</translation>
    </message>
    <message>
        <source>It no longer exists. It may have been deleted or revoked elsewhere.</source>
        <translation>Das Element existiert nicht mehr. Es wurde möglicherweise an anderer Stelle gelöscht oder widerrufen.</translation>
    </message>
    <message>
        <source>The request is too large for the server.</source>
        <translation>Die Anfrage ist für den Server zu groß.</translation>
    </message>
    <message numerus="yes">
        <source>Too many attempts. Please wait %n second(s) and try again.</source>
        <translation>
            <numerusform>Zu viele Versuche. Bitte warten Sie %n Sekunde und versuchen Sie es dann erneut.</numerusform>
            <numerusform>Zu viele Versuche. Bitte warten Sie %n Sekunden und versuchen Sie es dann erneut.</numerusform>
        </translation>
    </message>
    <message>
        <source>Too many attempts. Please wait a moment and try again.</source>
        <translation>Zu viele Versuche. Bitte warten Sie einen Moment und versuchen Sie es dann erneut.</translation>
    </message>
    <message numerus="yes">
        <source>The server is busy. Please try again in %n second(s).</source>
        <translation>
            <numerusform>Der Server ist ausgelastet. Bitte versuchen Sie es in %n Sekunde erneut.</numerusform>
            <numerusform>Der Server ist ausgelastet. Bitte versuchen Sie es in %n Sekunden erneut.</numerusform>
        </translation>
    </message>
    <message>
        <source>The server is busy. Please try again in a moment.</source>
        <translation>Der Server ist ausgelastet. Bitte versuchen Sie es gleich noch einmal.</translation>
    </message>
    <message>
        <source>The server ran into a problem (error %1). Please try again later.</source>
        <translation>Auf dem Server ist ein Problem aufgetreten (Fehler %1). Bitte versuchen Sie es später erneut.</translation>
    </message>
    <message>
        <source>The server refused the request (error %1).</source>
        <translation>Der Server hat die Anfrage abgelehnt (Fehler %1).</translation>
    </message>
    <message>
        <source>The server refused the request (error %1): %2</source>
        <translation>Der Server hat die Anfrage abgelehnt (Fehler %1): %2</translation>
    </message>
</context>
<context>
    <name>imprint::app</name>
    <message>
        <source>The local server could not be started: %1</source>
        <translation>Der lokale Server konnte nicht gestartet werden: %1</translation>
    </message>
    <message>
        <source>There is no account in %1 yet. Create one with “imprint user add --email you@example.com --space NAME --create-space --role owner”, or start “imprint serve --demo” once for a demo account.</source>
        <translation>In %1 gibt es noch kein Konto. Legen Sie eines mit „imprint user add --email sie@beispiel.de --space NAME --create-space --role owner“ an oder starten Sie einmal „imprint serve --demo“ für ein Demokonto.</translation>
    </message>
</context>
<context>
    <name>imprint::gui::CreateKeyDialog</name>
    <message>
        <source>New API key</source>
        <translation>Neuer API-Schlüssel</translation>
    </message>
    <message>
        <source>e.g. Production website</source>
        <translation>z. B. Produktiv-Website</translation>
    </message>
    <message>
        <source>Expires on</source>
        <translation>Läuft ab am</translation>
    </message>
    <message>
        <source>Create key</source>
        <translation>Schlüssel erstellen</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>Expiry:</source>
        <translation>Ablauf:</translation>
    </message>
    <message>
        <source>The key&apos;s token is shown once, right after it is created.</source>
        <translation>Das Token des Schlüssels wird nur einmal angezeigt, direkt nach dem Erstellen.</translation>
    </message>
    <message>
        <source>Choose an expiry date in the future.</source>
        <translation>Wählen Sie ein Ablaufdatum in der Zukunft.</translation>
    </message>
    <message>
        <source>Creating the key…</source>
        <translation>Schlüssel wird erstellt …</translation>
    </message>
    <message>
        <source>The server created the key but did not send its token.</source>
        <translation>Der Server hat den Schlüssel erstellt, aber sein Token nicht gesendet.</translation>
    </message>
    <message>
        <source>Scopes:</source>
        <translation>Berechtigungen:</translation>
    </message>
    <message>
        <source>&amp;Render images</source>
        <translation>Bilder &amp;rendern</translation>
    </message>
    <message>
        <source>Manage &amp;content</source>
        <translation>&amp;Inhalte verwalten</translation>
    </message>
    <message>
        <source>Manage &amp;webhooks</source>
        <translation>&amp;Webhooks verwalten</translation>
    </message>
    <message>
        <source>The key may render images: /render and batches of renders (/renders).</source>
        <translation>Der Schlüssel darf Bilder rendern: /render und Render-Stapel (/renders).</translation>
    </message>
    <message>
        <source>The key may create, change and delete the space&apos;s templates, pages, fonts and assets, as a build pipeline does.</source>
        <translation>Der Schlüssel darf die Vorlagen, Seiten, Schriften und Bilder des Bereichs anlegen, ändern und löschen, wie es eine Build-Pipeline tut.</translation>
    </message>
    <message>
        <source>The key may register, list and remove the space&apos;s webhooks.</source>
        <translation>Der Schlüssel darf die Webhooks des Bereichs registrieren, auflisten und entfernen.</translation>
    </message>
</context>
<context>
    <name>imprint::gui::FontsTab</name>
    <message>
        <source>Fonts uploaded here can be named in a template&apos;s fontFamily. They belong to this space only.</source>
        <translation>Hier hochgeladene Schriften können in der fontFamily einer Vorlage genannt werden. Sie gehören nur zu diesem Bereich.</translation>
    </message>
    <message>
        <source>Family</source>
        <translation>Familie</translation>
    </message>
    <message>
        <source>Sample</source>
        <translation>Beispiel</translation>
    </message>
    <message>
        <source>Weight / style</source>
        <translation>Stärke / Stil</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>Format</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>&amp;Upload font…</source>
        <translation>Schrift &amp;hochladen …</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>&amp;Löschen …</translation>
    </message>
    <message>
        <source>Upload font</source>
        <translation>Schrift hochladen</translation>
    </message>
    <message>
        <source>Fonts (*.ttf *.otf *.woff *.woff2);;All files (*)</source>
        <translation>Schriften (*.ttf *.otf *.woff *.woff2);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>The font “%1” was uploaded.</source>
        <translation>Die Schrift „%1“ wurde hochgeladen.</translation>
    </message>
    <message>
        <source>Select the font to delete first.</source>
        <translation>Wählen Sie zuerst die Schrift aus, die gelöscht werden soll.</translation>
    </message>
    <message>
        <source>Delete font</source>
        <translation>Schrift löschen</translation>
    </message>
    <message>
        <source>Delete the font “%1” (%2)?</source>
        <translation>Die Schrift „%1“ (%2) löschen?</translation>
    </message>
    <message>
        <source>Templates that name it are drawn in the server&apos;s fonts from then on.</source>
        <translation>Vorlagen, die sie nennen, werden ab dann in den Schriften des Servers gezeichnet.</translation>
    </message>
    <message>
        <source>The font “%1” was deleted.</source>
        <translation>Die Schrift „%1“ wurde gelöscht.</translation>
    </message>
</context>
<context>
    <name>imprint::gui::KeysModel</name>
    <message>
        <source>just now</source>
        <translation>gerade eben</translation>
    </message>
    <message numerus="yes">
        <source>in %n minute(s)</source>
        <translation>
            <numerusform>in %n Minute</numerusform>
            <numerusform>in %n Minuten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n minute(s) ago</source>
        <translation>
            <numerusform>vor %n Minute</numerusform>
            <numerusform>vor %n Minuten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>in %n hour(s)</source>
        <translation>
            <numerusform>in %n Stunde</numerusform>
            <numerusform>in %n Stunden</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n hour(s) ago</source>
        <translation>
            <numerusform>vor %n Stunde</numerusform>
            <numerusform>vor %n Stunden</numerusform>
        </translation>
    </message>
    <message>
        <source>yesterday, %1</source>
        <translation>gestern, %1</translation>
    </message>
    <message>
        <source>tomorrow, %1</source>
        <translation>morgen, %1</translation>
    </message>
    <message numerus="yes">
        <source>in %n day(s)</source>
        <translation>
            <numerusform>in %n Tag</numerusform>
            <numerusform>in %n Tagen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n day(s) ago</source>
        <translation>
            <numerusform>vor %n Tag</numerusform>
            <numerusform>vor %n Tagen</numerusform>
        </translation>
    </message>
    <message>
        <source>(unnamed)</source>
        <translation>(ohne Namen)</translation>
    </message>
    <message>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <source>expired %1</source>
        <translation>abgelaufen (%1)</translation>
    </message>
    <message>
        <source>never used</source>
        <translation>nie benutzt</translation>
    </message>
    <message>
        <source>%1, created by %2</source>
        <translation>%1, erstellt von %2</translation>
    </message>
    <message>
        <source>Keys are listed by the start of their token; the token itself is never shown again.</source>
        <translation>Schlüssel werden mit dem Anfang ihres Tokens aufgeführt; das Token selbst wird nie wieder angezeigt.</translation>
    </message>
    <message>
        <source>This key does not expire.</source>
        <translation>Dieser Schlüssel läuft nicht ab.</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Prefix</source>
        <translation>Präfix</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>Läuft ab</translation>
    </message>
    <message>
        <source>Last used</source>
        <translation>Zuletzt benutzt</translation>
    </message>
    <message>
        <source>Scopes</source>
        <translation>Berechtigungen</translation>
    </message>
</context>
<context>
    <name>imprint::gui::KeysTab</name>
    <message>
        <source>&amp;New key…</source>
        <translation>&amp;Neuer Schlüssel …</translation>
    </message>
    <message>
        <source>&amp;Revoke…</source>
        <translation>&amp;Widerrufen …</translation>
    </message>
    <message>
        <source>« First</source>
        <translation>« Erste</translation>
    </message>
    <message>
        <source>‹ Previous</source>
        <translation>‹ Zurück</translation>
    </message>
    <message>
        <source>Next ›</source>
        <translation>Weiter ›</translation>
    </message>
    <message>
        <source>Last »</source>
        <translation>Letzte »</translation>
    </message>
    <message>
        <source>Keys per page:</source>
        <translation>Schlüssel pro Seite:</translation>
    </message>
    <message>
        <source>You need the owner or admin role to manage API keys.
Ask an owner of this space to change your role, then sign in again.</source>
        <translation>Um API-Schlüssel zu verwalten, benötigen Sie die Rolle Eigentümer oder Administrator.
Bitten Sie einen Eigentümer dieses Bereichs, Ihre Rolle zu ändern, und melden Sie sich dann erneut an.</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>Wird geladen …</translation>
    </message>
    <message>
        <source>Page %1 of %2</source>
        <translation>Seite %1 von %2</translation>
    </message>
    <message>
        <source>No active keys</source>
        <translation>Keine aktiven Schlüssel</translation>
    </message>
    <message numerus="yes">
        <source>%n active key(s)</source>
        <translation>
            <numerusform>%n aktiver Schlüssel</numerusform>
            <numerusform>%n aktive Schlüssel</numerusform>
        </translation>
    </message>
    <message>
        <source>The key “%1” was created.</source>
        <translation>Der Schlüssel „%1“ wurde erstellt.</translation>
    </message>
    <message>
        <source>Select the key to revoke first.</source>
        <translation>Wählen Sie zuerst den Schlüssel aus, der widerrufen werden soll.</translation>
    </message>
    <message>
        <source>Revoke API key</source>
        <translation>API-Schlüssel widerrufen</translation>
    </message>
    <message>
        <source>Revoke the key “%1” (%2…)?</source>
        <translation>Den Schlüssel „%1“ (%2…) widerrufen?</translation>
    </message>
    <message>
        <source>Applications using this key stop working immediately. This cannot be undone.</source>
        <translation>Anwendungen, die diesen Schlüssel verwenden, funktionieren sofort nicht mehr. Dies kann nicht rückgängig gemacht werden.</translation>
    </message>
    <message>
        <source>Revoke key</source>
        <translation>Schlüssel widerrufen</translation>
    </message>
    <message>
        <source>The key “%1” had already been revoked elsewhere. The list has been refreshed.</source>
        <translation>Der Schlüssel „%1“ wurde bereits an anderer Stelle widerrufen. Die Liste wurde aktualisiert.</translation>
    </message>
    <message>
        <source>The key “%1” was revoked.</source>
        <translation>Der Schlüssel „%1“ wurde widerrufen.</translation>
    </message>
</context>
<context>
    <name>imprint::gui::MainWindow</name>
    <message>
        <source>owner</source>
        <translation>Eigentümer</translation>
    </message>
    <message>
        <source>admin</source>
        <translation>Administrator</translation>
    </message>
    <message>
        <source>member</source>
        <translation>Mitglied</translation>
    </message>
    <message>
        <source>Imprint Console</source>
        <translation>Imprint-Konsole</translation>
    </message>
    <message>
        <source>Sign &amp;out</source>
        <translation>&amp;Abmelden</translation>
    </message>
    <message>
        <source>&amp;Keys</source>
        <translation>&amp;Schlüssel</translation>
    </message>
    <message>
        <source>&amp;Preview</source>
        <translation>&amp;Vorschau</translation>
    </message>
    <message>
        <source>Your session has expired. Please sign in again.</source>
        <translation>Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.</translation>
    </message>
    <message>
        <source>Talking to the server…</source>
        <translation>Verbindung mit dem Server …</translation>
    </message>
    <message>
        <source>Signed in as %1 (%2) on %3</source>
        <translation>Angemeldet als %1 (%2) auf %3</translation>
    </message>
    <message>
        <source>Signed in as %1 (%2) in “%3” on %4</source>
        <translation>Angemeldet als %1 (%2) in „%3“ auf %4</translation>
    </message>
    <message>
        <source>You have signed out.</source>
        <translation>Sie haben sich abgemeldet.</translation>
    </message>
    <message>
        <source>&amp;Signing keys</source>
        <translation>Si&amp;gnaturschlüssel</translation>
    </message>
    <message>
        <source>F&amp;onts</source>
        <translation>&amp;Fonts</translation>
    </message>
    <message>
        <source>S&amp;tudio</source>
        <translation>S&amp;tudio</translation>
    </message>
    <message>
        <source>&amp;Usage</source>
        <translation>&amp;Nutzung</translation>
    </message>
</context>
<context>
    <name>imprint::gui::PreviewTab</name>
    <message>
        <source>Reload the list of pages</source>
        <translation>Liste der Seiten neu laden</translation>
    </message>
    <message>
        <source>Template default</source>
        <translation>Vorgabe der Vorlage</translation>
    </message>
    <message>
        <source>Draft (render the unpublished version)</source>
        <translation>Entwurf (unveröffentlichte Fassung rendern)</translation>
    </message>
    <message>
        <source>imp_…, needed for renders</source>
        <translation>imp_…, für Renderings nötig</translation>
    </message>
    <message>
        <source>Renders are authenticated with an API key of this space. A key created on the Keys tab is filled in here.</source>
        <translation>Renderings werden mit einem API-Schlüssel dieses Bereichs authentifiziert. Ein im Reiter „Schlüssel“ erstellter Schlüssel wird hier eingetragen.</translation>
    </message>
    <message>
        <source>Variable</source>
        <translation>Variable</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Reset tweaks</source>
        <translation>Anpassungen zurücksetzen</translation>
    </message>
    <message>
        <source>&amp;Render</source>
        <translation>&amp;Rendern</translation>
    </message>
    <message>
        <source>&amp;Page:</source>
        <translation>&amp;Seite:</translation>
    </message>
    <message>
        <source>&amp;Engine:</source>
        <translation>&amp;Engine:</translation>
    </message>
    <message>
        <source>&amp;Format:</source>
        <translation>&amp;Format:</translation>
    </message>
    <message>
        <source>API &amp;key:</source>
        <translation>API-&amp;Schlüssel:</translation>
    </message>
    <message>
        <source>Tweaks (override the page&apos;s values for this render):</source>
        <translation>Anpassungen (überschreiben die Werte der Seite für dieses Rendering):</translation>
    </message>
    <message>
        <source>Pick a page and press Render.</source>
        <translation>Wählen Sie eine Seite und klicken Sie auf „Rendern“.</translation>
    </message>
    <message>
        <source>Copy image URL</source>
        <translation>Bild-URL kopieren</translation>
    </message>
    <message>
        <source>The stored render: a public, permanent link to exactly this image.</source>
        <translation>Das gespeicherte Rendering: ein öffentlicher, dauerhafter Link auf genau dieses Bild.</translation>
    </message>
    <message>
        <source>Copy render URL</source>
        <translation>Render-URL kopieren</translation>
    </message>
    <message>
        <source>A GET request that renders this page with these settings; add api_token=… or an Authorization header.</source>
        <translation>Eine GET-Anfrage, die diese Seite mit diesen Einstellungen rendert; ergänzen Sie api_token=… oder einen Authorization-Header.</translation>
    </message>
    <message>
        <source>The image URL was copied to the clipboard.</source>
        <translation>Die Bild-URL wurde in die Zwischenablage kopiert.</translation>
    </message>
    <message>
        <source>The render URL was copied to the clipboard. Add your API key as api_token or in an Authorization header.</source>
        <translation>Die Render-URL wurde in die Zwischenablage kopiert. Ergänzen Sie Ihren API-Schlüssel als api_token oder in einem Authorization-Header.</translation>
    </message>
    <message>
        <source>Loading pages…</source>
        <translation>Seiten werden geladen …</translation>
    </message>
    <message>
        <source>The pages could not be loaded. %1</source>
        <translation>Die Seiten konnten nicht geladen werden. %1</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>This space has no pages yet. Create a page from a template first (for example with “imprint page create”).</source>
        <translation>Dieser Bereich hat noch keine Seiten. Erstellen Sie zuerst eine Seite aus einer Vorlage (zum Beispiel mit „imprint page create“).</translation>
    </message>
    <message>
        <source>The template of this page could not be loaded. %1</source>
        <translation>Die Vorlage dieser Seite konnte nicht geladen werden. %1</translation>
    </message>
    <message>
        <source>Type: %1</source>
        <translation>Typ: %1</translation>
    </message>
    <message>
        <source>Rendering…</source>
        <translation>Wird gerendert …</translation>
    </message>
    <message>
        <source>The server needs an API key for renders. Enter one of this space&apos;s keys under “API key” (a new key from the Keys tab is filled in for you).</source>
        <translation>Der Server benötigt für Renderings einen API-Schlüssel. Geben Sie unter „API-Schlüssel“ einen Schlüssel dieses Bereichs ein (ein neuer Schlüssel aus dem Reiter „Schlüssel“ wird automatisch eingetragen).</translation>
    </message>
    <message>
        <source>The API key was not accepted: it is unknown, expired or revoked.</source>
        <translation>Der API-Schlüssel wurde nicht akzeptiert: Er ist unbekannt, abgelaufen oder widerrufen.</translation>
    </message>
    <message>
        <source>This page has no published version to render. Tick “Draft” to render its current state, or publish it first.</source>
        <translation>Diese Seite hat keine veröffentlichte Fassung. Aktivieren Sie „Entwurf“, um den aktuellen Stand zu rendern, oder veröffentlichen Sie sie zuerst.</translation>
    </message>
    <message>
        <source>The render finished but the console cannot display the image.</source>
        <translation>Das Rendering ist fertig, aber die Konsole kann das Bild nicht anzeigen.</translation>
    </message>
    <message>
        <source>%1×</source>
        <translation>%1×</translation>
    </message>
    <message>
        <source>Device scale factor: the same layout with 2 or 3 times the pixels, for high-density screens. PNG, WebP and JPEG only.</source>
        <translation>Geräte-Skalierungsfaktor: dasselbe Layout mit 2- oder 3-mal so vielen Pixeln, für hochauflösende Bildschirme. Nur PNG, WebP und JPEG.</translation>
    </message>
    <message>
        <source>&amp;Scale:</source>
        <translation>&amp;Skalierung:</translation>
    </message>
    <message>
        <source>Chromium&apos;s print to PDF: one page the template&apos;s size, text as text.</source>
        <translation>Chromiums PDF-Druck: eine Seite in der Größe der Vorlage, Text bleibt Text.</translation>
    </message>
    <message>
        <source>PDF is drawn by the html engine only.</source>
        <translation>PDF erzeugt nur die html-Engine.</translation>
    </message>
    <message>
        <source>A PDF: shown here is its first page, drawn by the console. “Copy image URL” links the PDF itself.</source>
        <translation>Ein PDF: Hier steht seine erste Seite, von der Konsole gezeichnet. „Bild-URL kopieren“ verweist auf das PDF selbst.</translation>
    </message>
    <message>
        <source> (%1×)</source>
        <translation> (%1×)</translation>
    </message>
    <message>
        <source>%1 × %2 px%3 · %4 · %5 · %6</source>
        <translation>%1 × %2 px%3 · %4 · %5 · %6</translation>
    </message>
    <message>
        <source>%1 %2 ms</source>
        <translation>%1 %2 ms</translation>
    </message>
    <message>
        <source>Round trip %1 ms</source>
        <translation>Antwortzeit %1 ms</translation>
    </message>
    <message>
        <source>Server time %1 ms · round trip %2 ms</source>
        <translation>Serverzeit %1 ms · Antwortzeit %2 ms</translation>
    </message>
    <message>
        <source>load</source>
        <translation>Laden</translation>
    </message>
    <message>
        <source>layout</source>
        <translation>Layout</translation>
    </message>
    <message>
        <source>paint</source>
        <translation>Zeichnen</translation>
    </message>
    <message>
        <source>encode</source>
        <translation>Kodieren</translation>
    </message>
    <message>
        <source>store</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>This server does not offer pages to preview yet.</source>
        <translation>Dieser Server bietet noch keine Seiten für die Vorschau an.</translation>
    </message>
    <message>
        <source>reused an identical render from the last few seconds</source>
        <translation>ein identisches Rendering der letzten Sekunden wiederverwendet</translation>
    </message>
    <message>
        <source>The signing key that signs the URL (Signing keys tab).</source>
        <translation>Der Signaturschlüssel, mit dem die URL signiert wird (Reiter „Signaturschlüssel“).</translation>
    </message>
    <message>
        <source>Copy signed URL</source>
        <translation>Signierte URL kopieren</translation>
    </message>
    <message>
        <source>A render URL of this published page with these settings, signed by the server with the chosen signing key: it needs no API key, e.g. for og:image.</source>
        <translation>Eine Render-URL dieser veröffentlichten Seite mit diesen Einstellungen, vom Server mit dem gewählten Signaturschlüssel signiert: Sie braucht keinen API-Schlüssel, z. B. für og:image.</translation>
    </message>
    <message>
        <source>Signing key:</source>
        <translation>Signaturschlüssel:</translation>
    </message>
    <message>
        <source>Choose a page and a signing key first.</source>
        <translation>Wählen Sie zuerst eine Seite und einen Signaturschlüssel.</translation>
    </message>
    <message>
        <source>The signed URL was copied to the clipboard. It renders the published page without an API key until the key is revoked.</source>
        <translation>Die signierte URL wurde in die Zwischenablage kopiert. Sie rendert die veröffentlichte Seite ohne API-Schlüssel, bis der Schlüssel widerrufen wird.</translation>
    </message>
    <message>
        <source>The html engine is starting; the preview renders again in a moment.</source>
        <translation>Die HTML-Engine startet; die Vorschau wird gleich erneut gerendert.</translation>
    </message>
    <message>
        <source>A size preset: the template&apos;s own sizes first, then the social networks&apos; (og 1200×630, square 1080×1080, story 1080×1920, …).</source>
        <translation>Eine Größenvorgabe: zuerst die eigenen Größen der Vorlage, dann die der sozialen Netzwerke (og 1200×630, square 1080×1080, story 1080×1920, …).</translation>
    </message>
    <message>
        <source>Si&amp;ze:</source>
        <translation>&amp;Größe:</translation>
    </message>
    <message>
        <source>Version:</source>
        <translation>Version:</translation>
    </message>
    <message>
        <source>Template size (%1 × %2)</source>
        <translation>Größe der Vorlage (%1 × %2)</translation>
    </message>
    <message>
        <source>Template size</source>
        <translation>Größe der Vorlage</translation>
    </message>
    <message>
        <source>pinned to version %1 of %2</source>
        <translation>ist an Version %1 von %2 gebunden</translation>
    </message>
    <message>
        <source>follows the latest, version %1</source>
        <translation>folgt der neuesten, Version %1</translation>
    </message>
    <message>
        <source>The page %1; published with version %2.</source>
        <translation>Die Seite %1; veröffentlicht mit Version %2.</translation>
    </message>
    <message>
        <source>The page %1; not published.</source>
        <translation>Die Seite %1; nicht veröffentlicht.</translation>
    </message>
</context>
<context>
    <name>imprint::gui::SignInPage</name>
    <message>
        <source>Imprint Console</source>
        <translation>Imprint-Konsole</translation>
    </message>
    <message>
        <source>Sign in with your dashboard account to manage API keys and preview renders.</source>
        <translation>Melden Sie sich mit Ihrem Dashboard-Konto an, um API-Schlüssel zu verwalten und Renderings in der Vorschau anzusehen.</translation>
    </message>
    <message>
        <source>http://localhost:8080</source>
        <translation>http://localhost:8080</translation>
    </message>
    <message>
        <source>you@example.com</source>
        <translation>sie@beispiel.de</translation>
    </message>
    <message>
        <source>Sign in</source>
        <translation>Anmelden</translation>
    </message>
    <message>
        <source>&amp;Server:</source>
        <translation>&amp;Server:</translation>
    </message>
    <message>
        <source>&amp;Email:</source>
        <translation>&amp;E-Mail:</translation>
    </message>
    <message>
        <source>&amp;Password:</source>
        <translation>&amp;Passwort:</translation>
    </message>
    <message>
        <source>Enter the server address, for example http://localhost:8080.</source>
        <translation>Geben Sie die Serveradresse ein, zum Beispiel http://localhost:8080.</translation>
    </message>
    <message>
        <source>Enter the email address of your account.</source>
        <translation>Geben Sie die E-Mail-Adresse Ihres Kontos ein.</translation>
    </message>
    <message>
        <source>Enter your password.</source>
        <translation>Geben Sie Ihr Passwort ein.</translation>
    </message>
    <message>
        <source>Signing in to %1…</source>
        <translation>Anmeldung bei %1 …</translation>
    </message>
</context>
<context>
    <name>imprint::gui::SigningKeysTab</name>
    <message>
        <source>Signing keys sign render URLs, so that an image can be embedded (e.g. as og:image) without an API key in the page.</source>
        <translation>Signaturschlüssel signieren Render-URLs, damit ein Bild ohne API-Schlüssel in der Seite eingebunden werden kann (z. B. als og:image).</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>&amp;New signing key…</source>
        <translation>&amp;Neuer Signaturschlüssel …</translation>
    </message>
    <message>
        <source>&amp;Revoke…</source>
        <translation>&amp;Widerrufen …</translation>
    </message>
    <message>
        <source>You need the owner or admin role to manage signing keys.
Ask an owner of this space to change your role, then sign in again.</source>
        <translation>Sie benötigen die Rolle Eigentümer oder Administrator, um Signaturschlüssel zu verwalten.
Bitten Sie einen Eigentümer dieses Bereichs, Ihre Rolle zu ändern, und melden Sie sich dann erneut an.</translation>
    </message>
    <message>
        <source>New signing key</source>
        <translation>Neuer Signaturschlüssel</translation>
    </message>
    <message>
        <source>Name (e.g. the site that embeds the images):</source>
        <translation>Name (z. B. die Website, die die Bilder einbindet):</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>Erstellen</translation>
    </message>
    <message>
        <source>The signing key “%1” was created.</source>
        <translation>Der Signaturschlüssel „%1“ wurde erstellt.</translation>
    </message>
    <message>
        <source>Signing key created</source>
        <translation>Signaturschlüssel erstellt</translation>
    </message>
    <message>
        <source>The signing key “%1” (%2) has been created. This is its secret:</source>
        <translation>Der Signaturschlüssel „%1“ (%2) wurde erstellt. Dies ist sein Geheimnis:</translation>
    </message>
    <message>
        <source>Copy it now if a program of yours signs URLs itself: it will not be shown again. The console does not need it: “Copy signed URL” in Preview asks the server to sign.</source>
        <translation>Kopieren Sie es jetzt, wenn ein eigenes Programm URLs selbst signiert: Es wird nicht noch einmal angezeigt. Die Konsole braucht es nicht: „Signierte URL kopieren“ in der Vorschau lässt den Server signieren.</translation>
    </message>
    <message>
        <source>Select the signing key to revoke first.</source>
        <translation>Wählen Sie zuerst den Signaturschlüssel aus, der widerrufen werden soll.</translation>
    </message>
    <message>
        <source>Revoke signing key</source>
        <translation>Signaturschlüssel widerrufen</translation>
    </message>
    <message>
        <source>Revoke the signing key “%1” (%2)?</source>
        <translation>Den Signaturschlüssel „%1“ (%2) widerrufen?</translation>
    </message>
    <message>
        <source>Every URL signed with this key stops working immediately. This cannot be undone.</source>
        <translation>Jede mit diesem Schlüssel signierte URL funktioniert sofort nicht mehr. Dies kann nicht rückgängig gemacht werden.</translation>
    </message>
    <message>
        <source>Revoke key</source>
        <translation>Schlüssel widerrufen</translation>
    </message>
    <message>
        <source>The signing key “%1” had already been revoked elsewhere. The list has been refreshed.</source>
        <translation>Der Signaturschlüssel „%1“ war bereits anderswo widerrufen worden. Die Liste wurde aktualisiert.</translation>
    </message>
    <message>
        <source>The signing key “%1” was revoked.</source>
        <translation>Der Signaturschlüssel „%1“ wurde widerrufen.</translation>
    </message>
</context>
<context>
    <name>imprint::gui::SpaceTab</name>
    <message>
        <source>Re&amp;fresh</source>
        <translation>A&amp;ktualisieren</translation>
    </message>
</context>
<context>
    <name>imprint::gui::StudioTab</name>
    <message>
        <source>Untitled card</source>
        <translation>Karte ohne Titel</translation>
    </message>
    <message>
        <source>Hello</source>
        <translation>Hallo</translation>
    </message>
    <message>
        <source>Reload the list of templates</source>
        <translation>Liste der Vorlagen neu laden</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>&amp;Neu</translation>
    </message>
    <message>
        <source>Create a template from a starter card</source>
        <translation>Eine Vorlage aus einer Startkarte anlegen</translation>
    </message>
    <message>
        <source>Templates:</source>
        <translation>Vorlagen:</translation>
    </message>
    <message>
        <source>Choose a template on the left, or press New.</source>
        <translation>Wählen Sie links eine Vorlage oder drücken Sie „Neu“.</translation>
    </message>
    <message>
        <source>Document (JSON)</source>
        <translation>Dokument (JSON)</translation>
    </message>
    <message>
        <source>Markup (HTML)</source>
        <translation>Markup (HTML)</translation>
    </message>
    <message>
        <source>A template written as markup: edit its HTML on its own, without JSON escapes.</source>
        <translation>Eine als Markup geschriebene Vorlage: ihr HTML für sich bearbeiten, ohne JSON-Escapes.</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>Spei&amp;chern</translation>
    </message>
    <message>
        <source>Store the document as a new version of the template. Published pages keep their version until they are published again.</source>
        <translation>Das Dokument als neue Version der Vorlage speichern. Veröffentlichte Seiten behalten ihre Version, bis sie erneut veröffentlicht werden.</translation>
    </message>
    <message>
        <source>P&amp;ublish</source>
        <translation>Ver&amp;öffentlichen</translation>
    </message>
    <message>
        <source>Save, then publish every page of this template (a page is made when it has none).</source>
        <translation>Speichern, dann jede Seite dieser Vorlage veröffentlichen (hat sie keine, wird eine angelegt).</translation>
    </message>
    <message>
        <source>No comparison</source>
        <translation>Kein Vergleich</translation>
    </message>
    <message>
        <source>Beside: %1</source>
        <translation>Daneben: %1</translation>
    </message>
    <message>
        <source>Render the same document with a second engine, side by side.</source>
        <translation>Dasselbe Dokument mit einer zweiten Engine daneben rendern.</translation>
    </message>
    <message>
        <source>Template size</source>
        <translation>Größe der Vorlage</translation>
    </message>
    <message>
        <source>A size preset: the template&apos;s own sizes first, then the built-in ones.</source>
        <translation>Eine Größenvorgabe: zuerst die eigenen Größen der Vorlage, dann die eingebauten.</translation>
    </message>
    <message>
        <source>The preview appears here as you type.</source>
        <translation>Die Vorschau erscheint hier, während Sie tippen.</translation>
    </message>
    <message>
        <source>Variables (preview values)</source>
        <translation>Variablen (Werte für die Vorschau)</translation>
    </message>
    <message>
        <source>imp_…, needed for previews</source>
        <translation>imp_…, nötig für Vorschauen</translation>
    </message>
    <message>
        <source>Previews are inline renders, authenticated with an API key of this space. A key created on the Keys tab is filled in here.</source>
        <translation>Vorschauen sind Inline-Renderings, authentifiziert mit einem API-Schlüssel dieses Bereichs. Ein im Reiter „Schlüssel“ erstellter Schlüssel wird hier eingetragen.</translation>
    </message>
    <message>
        <source>API &amp;key:</source>
        <translation>API-&amp;Schlüssel:</translation>
    </message>
    <message>
        <source>The templates could not be loaded. %1</source>
        <translation>Die Vorlagen konnten nicht geladen werden. %1</translation>
    </message>
    <message>
        <source>This space has no templates yet: press New to start one.</source>
        <translation>Dieser Bereich hat noch keine Vorlagen: Drücken Sie „Neu“, um eine zu beginnen.</translation>
    </message>
    <message>
        <source>The template could not be loaded. %1</source>
        <translation>Die Vorlage konnte nicht geladen werden. %1</translation>
    </message>
    <message>
        <source>The html engine is starting; the preview renders again in a moment.</source>
        <translation>Die html-Engine startet; die Vorschau wird gleich erneut gerendert.</translation>
    </message>
    <message>
        <source>%1 × %2 px · %3 · %4&#xa0;ms</source>
        <translation>%1 × %2 px · %3 · %4&#xa0;ms</translation>
    </message>
    <message>
        <source>Previews need an API key of this space: enter one under “API key” (a key created on the Keys tab is filled in for you).</source>
        <translation>Vorschauen brauchen einen API-Schlüssel dieses Bereichs: Geben Sie einen unter „API-Schlüssel“ ein (ein im Reiter „Schlüssel“ erstellter wird für Sie eingetragen).</translation>
    </message>
    <message>
        <source>The API key was not accepted: it is unknown, expired or revoked.</source>
        <translation>Der API-Schlüssel wurde nicht akzeptiert: Er ist unbekannt, abgelaufen oder widerrufen.</translation>
    </message>
    <message>
        <source>Line %1, column %2: %3</source>
        <translation>Zeile %1, Spalte %2: %3</translation>
    </message>
    <message>
        <source>The document is not valid JSON yet: fix the underlined place first.</source>
        <translation>Das Dokument ist noch kein gültiges JSON: Beheben Sie zuerst die unterstrichene Stelle.</translation>
    </message>
    <message>
        <source>The template was not saved. %1</source>
        <translation>Die Vorlage wurde nicht gespeichert. %1</translation>
    </message>
    <message>
        <source>Saved as version %1.</source>
        <translation>Als Version %1 gespeichert.</translation>
    </message>
    <message>
        <source>The pages could not be loaded. %1</source>
        <translation>Die Seiten konnten nicht geladen werden. %1</translation>
    </message>
    <message>
        <source>The page was not published. %1</source>
        <translation>Die Seite wurde nicht veröffentlicht. %1</translation>
    </message>
    <message>
        <source>Published as the new page “%1” (%2).</source>
        <translation>Als neue Seite „%1“ (%2) veröffentlicht.</translation>
    </message>
    <message numerus="yes">
        <source>Published %n page(s).</source>
        <translation>
            <numerusform>%n Seite veröffentlicht.</numerusform>
            <numerusform>%n Seiten veröffentlicht.</numerusform>
        </translation>
    </message>
    <message>
        <source>Not published: %1.</source>
        <translation>Nicht veröffentlicht: %1.</translation>
    </message>
    <message>
        <source>The template was not created. %1</source>
        <translation>Die Vorlage wurde nicht angelegt. %1</translation>
    </message>
</context>
<context>
    <name>imprint::gui::TokenDialog</name>
    <message>
        <source>API key created</source>
        <translation>API-Schlüssel erstellt</translation>
    </message>
    <message>
        <source>The key “%1” has been created. This is its token:</source>
        <translation>Der Schlüssel „%1“ wurde erstellt. Das ist sein Token:</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>Copy it now and keep it somewhere safe: it will not be shown again. If you lose it, revoke this key and create a new one.</source>
        <translation>Kopieren Sie es jetzt und bewahren Sie es sicher auf: Es wird nicht noch einmal angezeigt. Wenn Sie es verlieren, widerrufen Sie diesen Schlüssel und erstellen Sie einen neuen.</translation>
    </message>
    <message>
        <source>I have copied it</source>
        <translation>Ich habe es kopiert</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>Kopiert</translation>
    </message>
</context>
<context>
    <name>imprint::gui::UsageTab</name>
    <message>
        <source>Last 7 days</source>
        <translation>Letzte 7 Tage</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>Letzte 30 Tage</translation>
    </message>
    <message>
        <source>Renders per day by API key</source>
        <translation>Renderings pro Tag nach API-Schlüssel</translation>
    </message>
    <message>
        <source>Renders per day by engine</source>
        <translation>Renderings pro Tag nach Engine</translation>
    </message>
    <message>
        <source>Render time (ms)</source>
        <translation>Renderzeit (ms)</translation>
    </message>
    <message>
        <source>Errors per day by problem code</source>
        <translation>Fehler pro Tag nach Problemcode</translation>
    </message>
    <message>
        <source>Cache hits per day</source>
        <translation>Cache-Treffer pro Tag</translation>
    </message>
    <message>
        <source>Bytes served per day</source>
        <translation>Ausgelieferte Bytes pro Tag</translation>
    </message>
    <message>
        <source>You need the owner or admin role to see this space&apos;s usage.
Ask an owner of this space to change your role, then sign in again.</source>
        <translation>Sie brauchen die Rolle Eigentümer oder Admin, um die Nutzung dieses Bereichs zu sehen.
Bitten Sie einen Eigentümer des Bereichs, Ihre Rolle zu ändern, und melden Sie sich dann erneut an.</translation>
    </message>
    <message>
        <source>(no key)</source>
        <translation>(kein Schlüssel)</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>MiB</translation>
    </message>
    <message>
        <source>KiB</source>
        <translation>KiB</translation>
    </message>
    <message>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1: renders %2 · errors %3 · cache hits %4 · bytes served %5 · p50 %6 · p95 %7</source>
        <translation>%1: Renderings %2 · Fehler %3 · Cache-Treffer %4 · ausgeliefert %5 · p50 %6 · p95 %7</translation>
    </message>
    <message>
        <source>No renders in this range yet: the charts fill in as the space&apos;s API keys and signed URLs render.</source>
        <translation>In diesem Zeitraum noch keine Renderings: Die Diagramme füllen sich, sobald die API-Schlüssel und signierten URLs des Bereichs rendern.</translation>
    </message>
    <message>
        <source>p50</source>
        <translation>p50</translation>
    </message>
    <message>
        <source>p95</source>
        <translation>p95</translation>
    </message>
</context>
</TS>
