"""The book's apparatus: figures, explorers, the symbolic theory, the sources' experiments, the
example data sets. It imports the library (clfmetrics); the library never imports it."""
