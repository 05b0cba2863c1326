<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr">
<context>
    <name>ApiError</name>
    <message>
        <source>The server at %1 sent an answer the console does not understand. Is this an Imprint server?</source>
        <translation>Le serveur %1 a envoyé une réponse que la console ne comprend pas. S’agit-il bien d’un serveur Imprint ?</translation>
    </message>
    <message>
        <source>The server at %1 could not be reached. Check the address and that the server is running.</source>
        <translation>Impossible de joindre le serveur %1. Vérifiez l’adresse et que le serveur est bien démarré.</translation>
    </message>
    <message>
        <source>The server at %1 did not answer in time. Please try again.</source>
        <translation>Le serveur %1 n’a pas répondu à temps. Veuillez réessayer.</translation>
    </message>
    <message>
        <source>A secure connection to %1 could not be established.</source>
        <translation>Impossible d’établir une connexion sécurisée avec %1.</translation>
    </message>
    <message>
        <source>The server at %1 could not be reached (%2).</source>
        <translation>Impossible de joindre le serveur %1 (%2).</translation>
    </message>
    <message>
        <source>The server did not accept the request.</source>
        <translation>Le serveur n’a pas accepté la requête.</translation>
    </message>
    <message>
        <source>The server did not accept the request: %1</source>
        <translation>Le serveur n’a pas accepté la requête : %1</translation>
    </message>
    <message>
        <source>The email address or password is not correct.</source>
        <translation>L’adresse e-mail ou le mot de passe est incorrect.</translation>
    </message>
    <message>
        <source>Your session has expired. Please sign in again.</source>
        <translation>Votre session a expiré. Veuillez vous reconnecter.</translation>
    </message>
    <message>
        <source>The image is larger than your plan allows.</source>
        <translation>L’image dépasse la taille autorisée par votre offre.</translation>
    </message>
    <message>
        <source>You need the owner or admin role to do this.</source>
        <translation>Vous devez avoir le rôle propriétaire ou administrateur pour cela.</translation>
    </message>
    <message>
        <source>It no longer exists. It may have been deleted or revoked elsewhere.</source>
        <translation>L’élément n’existe plus. Il a peut-être été supprimé ou révoqué ailleurs.</translation>
    </message>
    <message>
        <source>The request is too large for the server.</source>
        <translation>La requête est trop volumineuse pour le serveur.</translation>
    </message>
    <message numerus="yes">
        <source>Too many attempts. Please wait %n second(s) and try again.</source>
        <translation>
            <numerusform>Trop de tentatives. Veuillez patienter %n seconde avant de réessayer.</numerusform>
            <numerusform>Trop de tentatives. Veuillez patienter %n secondes avant de réessayer.</numerusform>
        </translation>
    </message>
    <message>
        <source>Too many attempts. Please wait a moment and try again.</source>
        <translation>Trop de tentatives. Veuillez patienter un instant avant de réessayer.</translation>
    </message>
    <message numerus="yes">
        <source>The server is busy. Please try again in %n second(s).</source>
        <translation>
            <numerusform>Le serveur est occupé. Veuillez réessayer dans %n seconde.</numerusform>
            <numerusform>Le serveur est occupé. Veuillez réessayer dans %n secondes.</numerusform>
        </translation>
    </message>
    <message>
        <source>The server is busy. Please try again in a moment.</source>
        <translation>Le serveur est occupé. Veuillez réessayer dans un instant.</translation>
    </message>
    <message>
        <source>The server ran into a problem (error %1). Please try again later.</source>
        <translation>Le serveur a rencontré un problème (erreur %1). Veuillez réessayer plus tard.</translation>
    </message>
    <message>
        <source>The server refused the request (error %1).</source>
        <translation>Le serveur a refusé la requête (erreur %1).</translation>
    </message>
    <message>
        <source>The server refused the request (error %1): %2</source>
        <translation>Le serveur a refusé la requête (erreur %1) : %2</translation>
    </message>
</context>
<context>
    <name>imprint::app</name>
    <message>
        <source>The local server could not be started: %1</source>
        <translation>Impossible de démarrer le serveur local : %1</translation>
    </message>
    <message>
        <source>There is no account in %1 yet. Create one with “imprint user add --email you@example.com --space NAME --create-space --role owner”, or start “imprint serve --demo” once for a demo account.</source>
        <translation>Il n’existe encore aucun compte dans %1. Créez-en un avec « imprint user add --email vous@exemple.fr --space NOM --create-space --role owner », ou lancez une fois « imprint serve --demo » pour obtenir un compte de démonstration.</translation>
    </message>
</context>
<context>
    <name>imprint::gui::CreateKeyDialog</name>
    <message>
        <source>New API key</source>
        <translation>Nouvelle clé d’API</translation>
    </message>
    <message>
        <source>e.g. Production website</source>
        <translation>p. ex. Site de production</translation>
    </message>
    <message>
        <source>Expires on</source>
        <translation>Expire le</translation>
    </message>
    <message>
        <source>Create key</source>
        <translation>Créer la clé</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Nom :</translation>
    </message>
    <message>
        <source>Expiry:</source>
        <translation>Expiration :</translation>
    </message>
    <message>
        <source>The key&apos;s token is shown once, right after it is created.</source>
        <translation>Le jeton de la clé n’est affiché qu’une seule fois, juste après sa création.</translation>
    </message>
    <message>
        <source>Choose an expiry date in the future.</source>
        <translation>Choisissez une date d’expiration dans le futur.</translation>
    </message>
    <message>
        <source>Creating the key…</source>
        <translation>Création de la clé…</translation>
    </message>
    <message>
        <source>The server created the key but did not send its token.</source>
        <translation>Le serveur a créé la clé mais n’a pas envoyé son jeton.</translation>
    </message>
    <message>
        <source>Scopes:</source>
        <translation>Portées :</translation>
    </message>
    <message>
        <source>&amp;Render images</source>
        <translation>Générer des &amp;images</translation>
    </message>
    <message>
        <source>Manage &amp;content</source>
        <translation>Gérer le &amp;contenu</translation>
    </message>
    <message>
        <source>Manage &amp;webhooks</source>
        <translation>Gérer les &amp;webhooks</translation>
    </message>
    <message>
        <source>The key may render images: /render and batches of renders (/renders).</source>
        <translation>La clé peut générer des images : /render et les lots de rendus (/renders).</translation>
    </message>
    <message>
        <source>The key may create, change and delete the space&apos;s templates, pages, fonts and assets, as a build pipeline does.</source>
        <translation>La clé peut créer, modifier et supprimer les modèles, pages, polices et images de l’espace, comme le fait une chaîne de build.</translation>
    </message>
    <message>
        <source>The key may register, list and remove the space&apos;s webhooks.</source>
        <translation>La clé peut enregistrer, lister et supprimer les webhooks de l’espace.</translation>
    </message>
</context>
<context>
    <name>imprint::gui::FontsTab</name>
    <message>
        <source>Fonts uploaded here can be named in a template&apos;s fontFamily. They belong to this space only.</source>
        <translation>Les polices téléversées ici peuvent être nommées dans la fontFamily d’un modèle. Elles n’appartiennent qu’à cet espace.</translation>
    </message>
    <message>
        <source>Family</source>
        <translation>Famille</translation>
    </message>
    <message>
        <source>Sample</source>
        <translation>Exemple</translation>
    </message>
    <message>
        <source>Weight / style</source>
        <translation>Graisse / style</translation>
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
        <translation>&amp;Téléverser une police…</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>Supp&amp;rimer…</translation>
    </message>
    <message>
        <source>Upload font</source>
        <translation>Téléverser une police</translation>
    </message>
    <message>
        <source>Fonts (*.ttf *.otf *.woff *.woff2);;All files (*)</source>
        <translation>Polices (*.ttf *.otf *.woff *.woff2);;Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>Impossible de lire %1 : %2</translation>
    </message>
    <message>
        <source>The font “%1” was uploaded.</source>
        <translation>La police « %1 » a été téléversée.</translation>
    </message>
    <message>
        <source>Select the font to delete first.</source>
        <translation>Sélectionnez d’abord la police à supprimer.</translation>
    </message>
    <message>
        <source>Delete font</source>
        <translation>Supprimer la police</translation>
    </message>
    <message>
        <source>Delete the font “%1” (%2)?</source>
        <translation>Supprimer la police « %1 » (%2) ?</translation>
    </message>
    <message>
        <source>Templates that name it are drawn in the server&apos;s fonts from then on.</source>
        <translation>Les modèles qui la nomment seront dès lors dessinés avec les polices du serveur.</translation>
    </message>
    <message>
        <source>The font “%1” was deleted.</source>
        <translation>La police « %1 » a été supprimée.</translation>
    </message>
</context>
<context>
    <name>imprint::gui::KeysModel</name>
    <message>
        <source>just now</source>
        <translation>à l’instant</translation>
    </message>
    <message numerus="yes">
        <source>in %n minute(s)</source>
        <translation>
            <numerusform>dans %n minute</numerusform>
            <numerusform>dans %n minutes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n minute(s) ago</source>
        <translation>
            <numerusform>il y a %n minute</numerusform>
            <numerusform>il y a %n minutes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>in %n hour(s)</source>
        <translation>
            <numerusform>dans %n heure</numerusform>
            <numerusform>dans %n heures</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n hour(s) ago</source>
        <translation>
            <numerusform>il y a %n heure</numerusform>
            <numerusform>il y a %n heures</numerusform>
        </translation>
    </message>
    <message>
        <source>yesterday, %1</source>
        <translation>hier, %1</translation>
    </message>
    <message>
        <source>tomorrow, %1</source>
        <translation>demain, %1</translation>
    </message>
    <message numerus="yes">
        <source>in %n day(s)</source>
        <translation>
            <numerusform>dans %n jour</numerusform>
            <numerusform>dans %n jours</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n day(s) ago</source>
        <translation>
            <numerusform>il y a %n jour</numerusform>
            <numerusform>il y a %n jours</numerusform>
        </translation>
    </message>
    <message>
        <source>(unnamed)</source>
        <translation>(sans nom)</translation>
    </message>
    <message>
        <source>never</source>
        <translation>jamais</translation>
    </message>
    <message>
        <source>expired %1</source>
        <translation>expirée (%1)</translation>
    </message>
    <message>
        <source>never used</source>
        <translation>jamais utilisée</translation>
    </message>
    <message>
        <source>%1, created by %2</source>
        <translation>%1, créée par %2</translation>
    </message>
    <message>
        <source>Keys are listed by the start of their token; the token itself is never shown again.</source>
        <translation>Les clés sont identifiées par le début de leur jeton ; le jeton lui-même n’est plus jamais affiché.</translation>
    </message>
    <message>
        <source>This key does not expire.</source>
        <translation>Cette clé n’expire pas.</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nom</translation>
    </message>
    <message>
        <source>Prefix</source>
        <translation>Préfixe</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Créée</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>Expire</translation>
    </message>
    <message>
        <source>Last used</source>
        <translation>Dernière utilisation</translation>
    </message>
    <message>
        <source>Scopes</source>
        <translation>Portées</translation>
    </message>
</context>
<context>
    <name>imprint::gui::KeysTab</name>
    <message>
        <source>&amp;New key…</source>
        <translation>&amp;Nouvelle clé…</translation>
    </message>
    <message>
        <source>&amp;Revoke…</source>
        <translation>&amp;Révoquer…</translation>
    </message>
    <message>
        <source>« First</source>
        <translation>« Première</translation>
    </message>
    <message>
        <source>‹ Previous</source>
        <translation>‹ Précédente</translation>
    </message>
    <message>
        <source>Next ›</source>
        <translation>Suivante ›</translation>
    </message>
    <message>
        <source>Last »</source>
        <translation>Dernière »</translation>
    </message>
    <message>
        <source>Keys per page:</source>
        <translation>Clés par page :</translation>
    </message>
    <message>
        <source>You need the owner or admin role to manage API keys.
Ask an owner of this space to change your role, then sign in again.</source>
        <translation>Vous devez avoir le rôle propriétaire ou administrateur pour gérer les clés d’API.
Demandez à un propriétaire de cet espace de modifier votre rôle, puis reconnectez-vous.</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>Chargement…</translation>
    </message>
    <message>
        <source>Page %1 of %2</source>
        <translation>Page %1 sur %2</translation>
    </message>
    <message>
        <source>No active keys</source>
        <translation>Aucune clé active</translation>
    </message>
    <message numerus="yes">
        <source>%n active key(s)</source>
        <translation>
            <numerusform>%n clé active</numerusform>
            <numerusform>%n clés actives</numerusform>
        </translation>
    </message>
    <message>
        <source>The key “%1” was created.</source>
        <translation>La clé « %1 » a été créée.</translation>
    </message>
    <message>
        <source>Select the key to revoke first.</source>
        <translation>Sélectionnez d’abord la clé à révoquer.</translation>
    </message>
    <message>
        <source>Revoke API key</source>
        <translation>Révoquer la clé d’API</translation>
    </message>
    <message>
        <source>Revoke the key “%1” (%2…)?</source>
        <translation>Révoquer la clé « %1 » (%2…) ?</translation>
    </message>
    <message>
        <source>Applications using this key stop working immediately. This cannot be undone.</source>
        <translation>Les applications qui utilisent cette clé cessent immédiatement de fonctionner. Cette action est irréversible.</translation>
    </message>
    <message>
        <source>Revoke key</source>
        <translation>Révoquer la clé</translation>
    </message>
    <message>
        <source>The key “%1” had already been revoked elsewhere. The list has been refreshed.</source>
        <translation>La clé « %1 » avait déjà été révoquée ailleurs. La liste a été actualisée.</translation>
    </message>
    <message>
        <source>The key “%1” was revoked.</source>
        <translation>La clé « %1 » a été révoquée.</translation>
    </message>
</context>
<context>
    <name>imprint::gui::MainWindow</name>
    <message>
        <source>owner</source>
        <translation>propriétaire</translation>
    </message>
    <message>
        <source>admin</source>
        <translation>administrateur</translation>
    </message>
    <message>
        <source>member</source>
        <translation>membre</translation>
    </message>
    <message>
        <source>Imprint Console</source>
        <translation>Console Imprint</translation>
    </message>
    <message>
        <source>Sign &amp;out</source>
        <translation>Se &amp;déconnecter</translation>
    </message>
    <message>
        <source>&amp;Keys</source>
        <translation>&amp;Clés</translation>
    </message>
    <message>
        <source>&amp;Preview</source>
        <translation>&amp;Aperçu</translation>
    </message>
    <message>
        <source>Your session has expired. Please sign in again.</source>
        <translation>Votre session a expiré. Veuillez vous reconnecter.</translation>
    </message>
    <message>
        <source>Talking to the server…</source>
        <translation>Communication avec le serveur…</translation>
    </message>
    <message>
        <source>Signed in as %1 (%2) on %3</source>
        <translation>Connecté en tant que %1 (%2) sur %3</translation>
    </message>
    <message>
        <source>Signed in as %1 (%2) in “%3” on %4</source>
        <translation>Connecté en tant que %1 (%2) dans « %3 » sur %4</translation>
    </message>
    <message>
        <source>You have signed out.</source>
        <translation>Vous êtes déconnecté.</translation>
    </message>
    <message>
        <source>&amp;Signing keys</source>
        <translation>Clés de &amp;signature</translation>
    </message>
    <message>
        <source>F&amp;onts</source>
        <translation>&amp;Polices</translation>
    </message>
    <message>
        <source>S&amp;tudio</source>
        <translation>S&amp;tudio</translation>
    </message>
    <message>
        <source>&amp;Usage</source>
        <translation>&amp;Utilisation</translation>
    </message>
</context>
<context>
    <name>imprint::gui::PreviewTab</name>
    <message>
        <source>Reload the list of pages</source>
        <translation>Recharger la liste des pages</translation>
    </message>
    <message>
        <source>Template default</source>
        <translation>Par défaut du modèle</translation>
    </message>
    <message>
        <source>Draft (render the unpublished version)</source>
        <translation>Brouillon (rendre la version non publiée)</translation>
    </message>
    <message>
        <source>imp_…, needed for renders</source>
        <translation>imp_…, requise pour les rendus</translation>
    </message>
    <message>
        <source>Renders are authenticated with an API key of this space. A key created on the Keys tab is filled in here.</source>
        <translation>Les rendus sont authentifiés par une clé d’API de cet espace. Une clé créée dans l’onglet « Clés » est reportée ici.</translation>
    </message>
    <message>
        <source>Variable</source>
        <translation>Variable</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Valeur</translation>
    </message>
    <message>
        <source>Reset tweaks</source>
        <translation>Réinitialiser les ajustements</translation>
    </message>
    <message>
        <source>&amp;Render</source>
        <translation>&amp;Rendre</translation>
    </message>
    <message>
        <source>&amp;Page:</source>
        <translation>&amp;Page :</translation>
    </message>
    <message>
        <source>&amp;Engine:</source>
        <translation>&amp;Moteur :</translation>
    </message>
    <message>
        <source>&amp;Format:</source>
        <translation>&amp;Format :</translation>
    </message>
    <message>
        <source>API &amp;key:</source>
        <translation>&amp;Clé d’API :</translation>
    </message>
    <message>
        <source>Tweaks (override the page&apos;s values for this render):</source>
        <translation>Ajustements (remplacent les valeurs de la page pour ce rendu) :</translation>
    </message>
    <message>
        <source>Pick a page and press Render.</source>
        <translation>Choisissez une page et cliquez sur « Rendre ».</translation>
    </message>
    <message>
        <source>Copy image URL</source>
        <translation>Copier l’URL de l’image</translation>
    </message>
    <message>
        <source>The stored render: a public, permanent link to exactly this image.</source>
        <translation>Le rendu enregistré : un lien public et permanent vers exactement cette image.</translation>
    </message>
    <message>
        <source>Copy render URL</source>
        <translation>Copier l’URL de rendu</translation>
    </message>
    <message>
        <source>A GET request that renders this page with these settings; add api_token=… or an Authorization header.</source>
        <translation>Une requête GET qui rend cette page avec ces réglages ; ajoutez api_token=… ou un en-tête Authorization.</translation>
    </message>
    <message>
        <source>The image URL was copied to the clipboard.</source>
        <translation>L’URL de l’image a été copiée dans le presse-papiers.</translation>
    </message>
    <message>
        <source>The render URL was copied to the clipboard. Add your API key as api_token or in an Authorization header.</source>
        <translation>L’URL de rendu a été copiée dans le presse-papiers. Ajoutez votre clé d’API en tant que api_token ou dans un en-tête Authorization.</translation>
    </message>
    <message>
        <source>Loading pages…</source>
        <translation>Chargement des pages…</translation>
    </message>
    <message>
        <source>The pages could not be loaded. %1</source>
        <translation>Impossible de charger les pages. %1</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>This space has no pages yet. Create a page from a template first (for example with “imprint page create”).</source>
        <translation>Cet espace n’a pas encore de pages. Créez d’abord une page à partir d’un modèle (par exemple avec « imprint page create »).</translation>
    </message>
    <message>
        <source>The template of this page could not be loaded. %1</source>
        <translation>Impossible de charger le modèle de cette page. %1</translation>
    </message>
    <message>
        <source>Type: %1</source>
        <translation>Type : %1</translation>
    </message>
    <message>
        <source>Rendering…</source>
        <translation>Rendu en cours…</translation>
    </message>
    <message>
        <source>The server needs an API key for renders. Enter one of this space&apos;s keys under “API key” (a new key from the Keys tab is filled in for you).</source>
        <translation>Le serveur exige une clé d’API pour les rendus. Saisissez une clé de cet espace dans « Clé d’API » (une nouvelle clé créée dans l’onglet « Clés » y est reportée automatiquement).</translation>
    </message>
    <message>
        <source>The API key was not accepted: it is unknown, expired or revoked.</source>
        <translation>La clé d’API a été refusée : elle est inconnue, expirée ou révoquée.</translation>
    </message>
    <message>
        <source>This page has no published version to render. Tick “Draft” to render its current state, or publish it first.</source>
        <translation>Cette page n’a pas de version publiée. Cochez « Brouillon » pour rendre son état actuel, ou publiez-la d’abord.</translation>
    </message>
    <message>
        <source>The render finished but the console cannot display the image.</source>
        <translation>Le rendu est terminé, mais la console ne peut pas afficher l’image.</translation>
    </message>
    <message>
        <source>%1×</source>
        <translation>%1×</translation>
    </message>
    <message>
        <source>Device scale factor: the same layout with 2 or 3 times the pixels, for high-density screens. PNG, WebP and JPEG only.</source>
        <translation>Facteur d’échelle de l’appareil : la même mise en page avec 2 ou 3 fois plus de pixels, pour les écrans haute densité. PNG, WebP et JPEG uniquement.</translation>
    </message>
    <message>
        <source>&amp;Scale:</source>
        <translation>&amp;Échelle :</translation>
    </message>
    <message>
        <source>Chromium&apos;s print to PDF: one page the template&apos;s size, text as text.</source>
        <translation>L’impression PDF de Chromium : une page à la taille du modèle, le texte reste du texte.</translation>
    </message>
    <message>
        <source>PDF is drawn by the html engine only.</source>
        <translation>Seul le moteur html produit du PDF.</translation>
    </message>
    <message>
        <source>A PDF: shown here is its first page, drawn by the console. “Copy image URL” links the PDF itself.</source>
        <translation>Un PDF : sa première page est affichée ici, dessinée par la console. « Copier l’URL de l’image » renvoie au PDF lui-même.</translation>
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
        <translation>Aller-retour %1 ms</translation>
    </message>
    <message>
        <source>Server time %1 ms · round trip %2 ms</source>
        <translation>Temps serveur %1 ms · aller-retour %2 ms</translation>
    </message>
    <message>
        <source>load</source>
        <translation>chargement</translation>
    </message>
    <message>
        <source>layout</source>
        <translation>mise en page</translation>
    </message>
    <message>
        <source>paint</source>
        <translation>dessin</translation>
    </message>
    <message>
        <source>encode</source>
        <translation>encodage</translation>
    </message>
    <message>
        <source>store</source>
        <translation>stockage</translation>
    </message>
    <message>
        <source>This server does not offer pages to preview yet.</source>
        <translation>Ce serveur ne propose pas encore de pages à prévisualiser.</translation>
    </message>
    <message>
        <source>reused an identical render from the last few seconds</source>
        <translation>rendu identique des dernières secondes réutilisé</translation>
    </message>
    <message>
        <source>The signing key that signs the URL (Signing keys tab).</source>
        <translation>La clé de signature qui signe l’URL (onglet « Clés de signature »).</translation>
    </message>
    <message>
        <source>Copy signed URL</source>
        <translation>Copier l’URL signée</translation>
    </message>
    <message>
        <source>A render URL of this published page with these settings, signed by the server with the chosen signing key: it needs no API key, e.g. for og:image.</source>
        <translation>Une URL de rendu de cette page publiée avec ces réglages, signée par le serveur avec la clé de signature choisie : elle n’a besoin d’aucune clé d’API, par exemple pour og:image.</translation>
    </message>
    <message>
        <source>Signing key:</source>
        <translation>Clé de signature :</translation>
    </message>
    <message>
        <source>Choose a page and a signing key first.</source>
        <translation>Choisissez d’abord une page et une clé de signature.</translation>
    </message>
    <message>
        <source>The signed URL was copied to the clipboard. It renders the published page without an API key until the key is revoked.</source>
        <translation>L’URL signée a été copiée dans le presse-papiers. Elle produit le rendu de la page publiée sans clé d’API jusqu’à la révocation de la clé.</translation>
    </message>
    <message>
        <source>The html engine is starting; the preview renders again in a moment.</source>
        <translation>Le moteur html démarre ; l’aperçu sera de nouveau rendu dans un instant.</translation>
    </message>
    <message>
        <source>A size preset: the template&apos;s own sizes first, then the social networks&apos; (og 1200×630, square 1080×1080, story 1080×1920, …).</source>
        <translation>Une taille prédéfinie : d’abord les tailles propres au modèle, puis celles des réseaux sociaux (og 1200×630, square 1080×1080, story 1080×1920, …).</translation>
    </message>
    <message>
        <source>Si&amp;ze:</source>
        <translation>&amp;Taille :</translation>
    </message>
    <message>
        <source>Version:</source>
        <translation>Version :</translation>
    </message>
    <message>
        <source>Template size (%1 × %2)</source>
        <translation>Taille du modèle (%1 × %2)</translation>
    </message>
    <message>
        <source>Template size</source>
        <translation>Taille du modèle</translation>
    </message>
    <message>
        <source>pinned to version %1 of %2</source>
        <translation>est fixée à la version %1 sur %2</translation>
    </message>
    <message>
        <source>follows the latest, version %1</source>
        <translation>suit la dernière, version %1</translation>
    </message>
    <message>
        <source>The page %1; published with version %2.</source>
        <translation>La page %1 ; publiée avec la version %2.</translation>
    </message>
    <message>
        <source>The page %1; not published.</source>
        <translation>La page %1 ; non publiée.</translation>
    </message>
</context>
<context>
    <name>imprint::gui::SignInPage</name>
    <message>
        <source>Imprint Console</source>
        <translation>Console Imprint</translation>
    </message>
    <message>
        <source>Sign in with your dashboard account to manage API keys and preview renders.</source>
        <translation>Connectez-vous avec votre compte du tableau de bord pour gérer les clés d’API et prévisualiser des rendus.</translation>
    </message>
    <message>
        <source>http://localhost:8080</source>
        <translation>http://localhost:8080</translation>
    </message>
    <message>
        <source>you@example.com</source>
        <translation>vous@exemple.fr</translation>
    </message>
    <message>
        <source>Sign in</source>
        <translation>Se connecter</translation>
    </message>
    <message>
        <source>&amp;Server:</source>
        <translation>&amp;Serveur :</translation>
    </message>
    <message>
        <source>&amp;Email:</source>
        <translation>&amp;E-mail :</translation>
    </message>
    <message>
        <source>&amp;Password:</source>
        <translation>&amp;Mot de passe :</translation>
    </message>
    <message>
        <source>Enter the server address, for example http://localhost:8080.</source>
        <translation>Saisissez l’adresse du serveur, par exemple http://localhost:8080.</translation>
    </message>
    <message>
        <source>Enter the email address of your account.</source>
        <translation>Saisissez l’adresse e-mail de votre compte.</translation>
    </message>
    <message>
        <source>Enter your password.</source>
        <translation>Saisissez votre mot de passe.</translation>
    </message>
    <message>
        <source>Signing in to %1…</source>
        <translation>Connexion à %1…</translation>
    </message>
</context>
<context>
    <name>imprint::gui::SigningKeysTab</name>
    <message>
        <source>Signing keys sign render URLs, so that an image can be embedded (e.g. as og:image) without an API key in the page.</source>
        <translation>Les clés de signature signent les URL de rendu, pour qu’une image puisse être intégrée (par exemple en og:image) sans clé d’API dans la page.</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nom</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Créée</translation>
    </message>
    <message>
        <source>&amp;New signing key…</source>
        <translation>&amp;Nouvelle clé de signature…</translation>
    </message>
    <message>
        <source>&amp;Revoke…</source>
        <translation>&amp;Révoquer…</translation>
    </message>
    <message>
        <source>You need the owner or admin role to manage signing keys.
Ask an owner of this space to change your role, then sign in again.</source>
        <translation>Il vous faut le rôle propriétaire ou administrateur pour gérer les clés de signature.
Demandez à un propriétaire de cet espace de changer votre rôle, puis reconnectez-vous.</translation>
    </message>
    <message>
        <source>New signing key</source>
        <translation>Nouvelle clé de signature</translation>
    </message>
    <message>
        <source>Name (e.g. the site that embeds the images):</source>
        <translation>Nom (par exemple le site qui intègre les images) :</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>Créer</translation>
    </message>
    <message>
        <source>The signing key “%1” was created.</source>
        <translation>La clé de signature « %1 » a été créée.</translation>
    </message>
    <message>
        <source>Signing key created</source>
        <translation>Clé de signature créée</translation>
    </message>
    <message>
        <source>The signing key “%1” (%2) has been created. This is its secret:</source>
        <translation>La clé de signature « %1 » (%2) a été créée. Voici son secret :</translation>
    </message>
    <message>
        <source>Copy it now if a program of yours signs URLs itself: it will not be shown again. The console does not need it: “Copy signed URL” in Preview asks the server to sign.</source>
        <translation>Copiez-le maintenant si un de vos programmes signe lui-même des URL : il ne sera plus affiché. La console n’en a pas besoin : « Copier l’URL signée » dans Aperçu demande au serveur de signer.</translation>
    </message>
    <message>
        <source>Select the signing key to revoke first.</source>
        <translation>Sélectionnez d’abord la clé de signature à révoquer.</translation>
    </message>
    <message>
        <source>Revoke signing key</source>
        <translation>Révoquer la clé de signature</translation>
    </message>
    <message>
        <source>Revoke the signing key “%1” (%2)?</source>
        <translation>Révoquer la clé de signature « %1 » (%2) ?</translation>
    </message>
    <message>
        <source>Every URL signed with this key stops working immediately. This cannot be undone.</source>
        <translation>Toutes les URL signées avec cette clé cessent immédiatement de fonctionner. Cette action est irréversible.</translation>
    </message>
    <message>
        <source>Revoke key</source>
        <translation>Révoquer la clé</translation>
    </message>
    <message>
        <source>The signing key “%1” had already been revoked elsewhere. The list has been refreshed.</source>
        <translation>La clé de signature « %1 » avait déjà été révoquée ailleurs. La liste a été actualisée.</translation>
    </message>
    <message>
        <source>The signing key “%1” was revoked.</source>
        <translation>La clé de signature « %1 » a été révoquée.</translation>
    </message>
</context>
<context>
    <name>imprint::gui::SpaceTab</name>
    <message>
        <source>Re&amp;fresh</source>
        <translation>&amp;Actualiser</translation>
    </message>
</context>
<context>
    <name>imprint::gui::StudioTab</name>
    <message>
        <source>Untitled card</source>
        <translation>Carte sans titre</translation>
    </message>
    <message>
        <source>Hello</source>
        <translation>Bonjour</translation>
    </message>
    <message>
        <source>Reload the list of templates</source>
        <translation>Recharger la liste des modèles</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>&amp;Nouveau</translation>
    </message>
    <message>
        <source>Create a template from a starter card</source>
        <translation>Créer un modèle à partir d’une carte de départ</translation>
    </message>
    <message>
        <source>Templates:</source>
        <translation>Modèles :</translation>
    </message>
    <message>
        <source>Choose a template on the left, or press New.</source>
        <translation>Choisissez un modèle à gauche ou cliquez sur « Nouveau ».</translation>
    </message>
    <message>
        <source>Document (JSON)</source>
        <translation>Document (JSON)</translation>
    </message>
    <message>
        <source>Markup (HTML)</source>
        <translation>Balisage (HTML)</translation>
    </message>
    <message>
        <source>A template written as markup: edit its HTML on its own, without JSON escapes.</source>
        <translation>Un modèle écrit en balisage : modifiez son HTML seul, sans échappements JSON.</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Enregistrer</translation>
    </message>
    <message>
        <source>Store the document as a new version of the template. Published pages keep their version until they are published again.</source>
        <translation>Enregistrer le document comme nouvelle version du modèle. Les pages publiées gardent leur version jusqu’à leur prochaine publication.</translation>
    </message>
    <message>
        <source>P&amp;ublish</source>
        <translation>&amp;Publier</translation>
    </message>
    <message>
        <source>Save, then publish every page of this template (a page is made when it has none).</source>
        <translation>Enregistrer, puis publier chaque page de ce modèle (une page est créée s’il n’en a aucune).</translation>
    </message>
    <message>
        <source>No comparison</source>
        <translation>Sans comparaison</translation>
    </message>
    <message>
        <source>Beside: %1</source>
        <translation>À côté : %1</translation>
    </message>
    <message>
        <source>Render the same document with a second engine, side by side.</source>
        <translation>Rendre le même document avec un second moteur, côte à côte.</translation>
    </message>
    <message>
        <source>Template size</source>
        <translation>Taille du modèle</translation>
    </message>
    <message>
        <source>A size preset: the template&apos;s own sizes first, then the built-in ones.</source>
        <translation>Un format prédéfini : d’abord les tailles propres au modèle, puis celles intégrées.</translation>
    </message>
    <message>
        <source>The preview appears here as you type.</source>
        <translation>L’aperçu apparaît ici pendant la saisie.</translation>
    </message>
    <message>
        <source>Variables (preview values)</source>
        <translation>Variables (valeurs d’aperçu)</translation>
    </message>
    <message>
        <source>imp_…, needed for previews</source>
        <translation>imp_…, nécessaire aux aperçus</translation>
    </message>
    <message>
        <source>Previews are inline renders, authenticated with an API key of this space. A key created on the Keys tab is filled in here.</source>
        <translation>Les aperçus sont des rendus en ligne, authentifiés par une clé d’API de cet espace. Une clé créée dans l’onglet « Clés » est saisie ici.</translation>
    </message>
    <message>
        <source>API &amp;key:</source>
        <translation>&amp;Clé d’API :</translation>
    </message>
    <message>
        <source>The templates could not be loaded. %1</source>
        <translation>Les modèles n’ont pas pu être chargés. %1</translation>
    </message>
    <message>
        <source>This space has no templates yet: press New to start one.</source>
        <translation>Cet espace n’a pas encore de modèle : cliquez sur « Nouveau » pour en commencer un.</translation>
    </message>
    <message>
        <source>The template could not be loaded. %1</source>
        <translation>Le modèle n’a pas pu être chargé. %1</translation>
    </message>
    <message>
        <source>The html engine is starting; the preview renders again in a moment.</source>
        <translation>Le moteur html démarre ; l’aperçu sera rendu à nouveau dans un instant.</translation>
    </message>
    <message>
        <source>%1 × %2 px · %3 · %4&#xa0;ms</source>
        <translation>%1 × %2 px · %3 · %4&#xa0;ms</translation>
    </message>
    <message>
        <source>Previews need an API key of this space: enter one under “API key” (a key created on the Keys tab is filled in for you).</source>
        <translation>Les aperçus nécessitent une clé d’API de cet espace : saisissez-en une sous « Clé d’API » (une clé créée dans l’onglet « Clés » est saisie pour vous).</translation>
    </message>
    <message>
        <source>The API key was not accepted: it is unknown, expired or revoked.</source>
        <translation>La clé d’API a été refusée : elle est inconnue, expirée ou révoquée.</translation>
    </message>
    <message>
        <source>Line %1, column %2: %3</source>
        <translation>Ligne %1, colonne %2 : %3</translation>
    </message>
    <message>
        <source>The document is not valid JSON yet: fix the underlined place first.</source>
        <translation>Le document n’est pas encore du JSON valide : corrigez d’abord l’endroit souligné.</translation>
    </message>
    <message>
        <source>The template was not saved. %1</source>
        <translation>Le modèle n’a pas été enregistré. %1</translation>
    </message>
    <message>
        <source>Saved as version %1.</source>
        <translation>Enregistré comme version %1.</translation>
    </message>
    <message>
        <source>The pages could not be loaded. %1</source>
        <translation>Les pages n’ont pas pu être chargées. %1</translation>
    </message>
    <message>
        <source>The page was not published. %1</source>
        <translation>La page n’a pas été publiée. %1</translation>
    </message>
    <message>
        <source>Published as the new page “%1” (%2).</source>
        <translation>Publié comme nouvelle page « %1 » (%2).</translation>
    </message>
    <message numerus="yes">
        <source>Published %n page(s).</source>
        <translation>
            <numerusform>%n page publiée.</numerusform>
            <numerusform>%n pages publiées.</numerusform>
        </translation>
    </message>
    <message>
        <source>Not published: %1.</source>
        <translation>Non publié : %1.</translation>
    </message>
    <message>
        <source>The template was not created. %1</source>
        <translation>Le modèle n’a pas été créé. %1</translation>
    </message>
</context>
<context>
    <name>imprint::gui::TokenDialog</name>
    <message>
        <source>API key created</source>
        <translation>Clé d’API créée</translation>
    </message>
    <message>
        <source>The key “%1” has been created. This is its token:</source>
        <translation>La clé « %1 » a été créée. Voici son jeton :</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Copier</translation>
    </message>
    <message>
        <source>Copy it now and keep it somewhere safe: it will not be shown again. If you lose it, revoke this key and create a new one.</source>
        <translation>Copiez-le maintenant et conservez-le en lieu sûr : il ne sera plus affiché. Si vous le perdez, révoquez cette clé et créez-en une nouvelle.</translation>
    </message>
    <message>
        <source>I have copied it</source>
        <translation>Je l’ai copié</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>Copié</translation>
    </message>
</context>
<context>
    <name>imprint::gui::UsageTab</name>
    <message>
        <source>Last 7 days</source>
        <translation>7 derniers jours</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>30 derniers jours</translation>
    </message>
    <message>
        <source>Renders per day by API key</source>
        <translation>Rendus par jour par clé d’API</translation>
    </message>
    <message>
        <source>Renders per day by engine</source>
        <translation>Rendus par jour par moteur</translation>
    </message>
    <message>
        <source>Render time (ms)</source>
        <translation>Durée de rendu (ms)</translation>
    </message>
    <message>
        <source>Errors per day by problem code</source>
        <translation>Erreurs par jour par code de problème</translation>
    </message>
    <message>
        <source>Cache hits per day</source>
        <translation>Succès de cache par jour</translation>
    </message>
    <message>
        <source>Bytes served per day</source>
        <translation>Octets servis par jour</translation>
    </message>
    <message>
        <source>You need the owner or admin role to see this space&apos;s usage.
Ask an owner of this space to change your role, then sign in again.</source>
        <translation>Il faut le rôle propriétaire ou administrateur pour voir l’utilisation de cet espace.
Demandez à un propriétaire de l’espace de changer votre rôle, puis reconnectez-vous.</translation>
    </message>
    <message>
        <source>(no key)</source>
        <translation>(sans clé)</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>Mio</translation>
    </message>
    <message>
        <source>KiB</source>
        <translation>Kio</translation>
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
        <translation>%1 : rendus %2 · erreurs %3 · succès de cache %4 · octets servis %5 · p50 %6 · p95 %7</translation>
    </message>
    <message>
        <source>No renders in this range yet: the charts fill in as the space&apos;s API keys and signed URLs render.</source>
        <translation>Aucun rendu sur cette période : les graphiques se remplissent à mesure que les clés d’API et les URL signées de l’espace rendent.</translation>
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
