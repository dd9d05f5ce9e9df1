"""Fill the disk: 2 GiB into the private copy, and as much as it can into the answers file."""

chunk = b"\0" * 2**20
for path in ("/submission/fill", "/submission/answers.json"):
    written = 0
    try:
        with open(path, "wb") as fh:
            for _ in range(2048):
                fh.write(chunk)
                written += len(chunk)
    except OSError as err:
        print(path, "stopped after", written, "bytes:", type(err).__name__)
