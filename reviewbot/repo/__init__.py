"""Git, change sources, patches, file reading and the blob cache: the outside world as
frozen records."""
