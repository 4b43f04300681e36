"""The .npy files the reference scripts exchange with attnlab-cli (torch_reference.py,
modern_reference.py): written into a work folder, passed to a command, read back."""
import os
import subprocess

import numpy as np


class CliFiles:
    def __init__(self, cli, work):
        self.cli, self.work = cli, work
        os.makedirs(work, exist_ok=True)

    def save(self, name, array):
        path = os.path.join(self.work, name)
        np.save(path, array)
        return path

    def run(self, *args):
        proc = subprocess.run([self.cli, *args], capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"attnlab-cli {' '.join(args)} failed: {proc.stderr.strip()}")
        return proc.stdout

    def load(self, out, name):
        return np.load(os.path.join(self.work, out, name))
