"""The agent runtime: one LangGraph runtime, provider presets, the offline model, and profiles.

Never imports Textual: the same runtime serves the app, the headless CLI verbs and tests.
"""
