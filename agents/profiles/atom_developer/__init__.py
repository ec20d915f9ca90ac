"""atom-developer (interim): writes atom functions and checks them against the atom contract.

Interim: until the atom-developer issue brings seed 002's draft → validate → reflect → safe-stub
graph and the runtime sandbox, this profile runs on the shared agent ⇄ tools loop with one real
tool, ``validate_atom``, a static (``ast``) check of the contract. It never executes the code.
"""
