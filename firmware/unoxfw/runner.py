# unoxfw.runner: boot and one main-loop step, shared by firmware/main.py, the simulator and the benches.
#   start(machine, io, now_ms, config=None, seed=None) -> (board, app)
#   step(board, app, now_ms): app.tick(now_ms), then feed the watchdog (only here, never on host traffic)

from unoxfw.app import App
from unoxfw.board import Board
from unoxfw.pins import BATTERY, PINS


def start(machine, io, now_ms, config=None, seed=None):
    board = Board(machine, PINS, BATTERY)
    board.motor(0)
    return board, App(board, io, now_ms, config, seed)


def step(board, app, now_ms):
    app.tick(now_ms)
    board.wdt_feed()
