"""The offline demo publication: a synthetic news site served on 127.0.0.1."""
