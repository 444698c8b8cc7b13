"""A game of the reference engine at the terminal, for people: ``buckshot play``'s loop
(:mod:`.run`), the prompt and its help (:mod:`.terminal`, :mod:`.guide`), and the game told in
words (:mod:`.narrate`, :mod:`.wording`), which ``buckshot replay`` uses too."""
