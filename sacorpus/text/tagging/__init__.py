"""Part-of-speech tags (Universal POS) and lemmas for stored tokens, from models the package ships."""
