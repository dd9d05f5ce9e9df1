"""Fill the disk: 2 GiB into the private copy (file after file), then into the answers file."""

chunk = b"\0" * 2**20
paths = [f"/submission/fill{i}" for i in range(128)] + ["/submission/answers.json"]
written = 0
for path in paths:
    try:
        with open(path, "wb") as fh:
            for _ in range(16):
                fh.write(chunk)
                written += len(chunk)
    except OSError as err:
        print(path, "stopped after", written, "bytes in all:", type(err).__name__)
