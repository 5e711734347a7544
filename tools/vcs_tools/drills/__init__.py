"""scripts/reliability: the fault and attack drills, a module per drill or
family of drills, looked up by name in cli.DRILLS."""
