"""The ``buckshot`` program (:mod:`.main`) and its commands: the top layer of the imports."""
