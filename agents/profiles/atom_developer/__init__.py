"""atom-developer: log-parsing intents become Architecture 10.2 atoms and their YAML spec,
drafted, validated in a sandbox and fixed until they pass (or a safe stub says they did not)."""
