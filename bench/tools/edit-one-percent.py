"""Writes a copy of an inbox document with the text of every hundredth record edited in place.

In place, not re-serialised: json.dump would change every record's bytes, and conn would rightly
count 100,000 updates. Usage: edit-one-percent.py INBOX.json OUT.json
"""
import re
import sys

text = open(sys.argv[1], encoding="utf-8").read()
count = 0


def edit(match):
    global count
    count += 1
    return match.group(0) + "(edited) " if count % 100 == 1 else match.group(0)


open(sys.argv[2], "w", encoding="utf-8").write(re.sub(r'"text":\s*"', edit, text))
