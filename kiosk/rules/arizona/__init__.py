"""Arizona Hold'em (the Mpumalanga table game rules, section 6): the five-card evaluator,
rule 6.6's pay table and the game's exact odds with the best raises."""
