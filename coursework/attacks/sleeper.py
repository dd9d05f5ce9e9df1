"""Sleep for ever, and refuse to be interrupted (SIGINT ignored), in the first answer cell."""

import signal
import time

signal.signal(signal.SIGINT, signal.SIG_IGN)
time.sleep(10**6)
