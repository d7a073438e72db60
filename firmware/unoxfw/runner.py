# unoxfw.runner: boot and one main-loop step, shared by firmware/main.py, the simulator and the benches.
#   boot(machine, io, now_ms, wdt=None, config=None, seed=None, ticks=None, schedule=None) -> (board, app):
#       main.py's boot after it armed the watchdog (machine.WDT(timeout=WDT_MS), its first line): the board
#       with its motor off, the app, then the WDT handed to the board (None: no watchdog, as the tests' rigs).
#       The simulator boots the same way, in the same order.
#       ticks: the loop's clock (time.ticks_ms), for the beam IRQ's edge times (unoxfw.board).
#       schedule: micropython.schedule (main.py on the chip): the board's timer takes a press at the glitch
#       filter's end, and a standalone one starts the motor there (unoxfw.board, the fast press)
#   step(board, app, now_ms): app.tick(now_ms), then feed the watchdog (only here, never on host traffic)
# One boot function, not a start() beside it: a function costs ~50 B of heap on the chip besides its code.

from unoxfw.app import App
from unoxfw.board import Board
from unoxfw.pins import BATTERY, PINS

WDT_MS = 5000  # firmware/main.py arms the watchdog with this, first of all (RP2040 maximum: 8388 ms)


def boot(machine, io, now_ms, wdt=None, config=None, seed=None, ticks=None, schedule=None):
    board = Board(machine, PINS, BATTERY, ticks)
    board.motor(0)
    app = App(board, io, now_ms, config, seed)
    if schedule is not None and ticks is not None:
        board.use_schedule(schedule, app.on_press)  # the fast press (unoxfw.board)
    board.use_wdt(wdt)
    return board, app


def step(board, app, now_ms):
    app.tick(now_ms)
    board.wdt_feed()
