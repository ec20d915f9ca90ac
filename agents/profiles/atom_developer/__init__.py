"""atom-developer (interim): writes atom functions and checks them against the atom contract.

For now it runs on the shared agent ⇄ tools loop with one real tool, ``validate_atom``, a
static (``ast``) check of the contract; it never executes the code. A draft → validate →
reflect → safe-stub graph with a sandboxed contract run is still to come.
"""
