"""The headless core of the app: the command's verbs, the settings, the services (store,
runtime, providers built once), the ACP agent, the seats' server. Nothing here imports Textual
(an import contract says so): the command line, an editor's ACP session and a seat's server
start without it, and the Textual app (screens and widgets) sits on top of this package."""
