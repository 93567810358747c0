"""Looking into rules and relations without a verdict: the rule catalogue
(``rules``) and one rule explained (``rules --explain``), the relation listing
(``relations``) and the graph export (``graph``).

May import: core, inputs, rules, wasm, relations, evaluation, results,
scanning.
"""
