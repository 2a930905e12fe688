"""What a finding means: units, measures, findings, bundles, impact, hotspots, position diffs."""
