# The GDB remote port of the firmware core (issue 20, "Debugging"; cpu.gdb_port with
# cpu.model=iss, tlm/cpu/gdb_remote.h and iss_gdb.h): ufs-sim on test-small with a few I/Os,
# driven by a small GDB Remote Serial Protocol client written here, as gdb-multiarch would
# drive it. A breakpoint on a firmware function (its address from the ELF's symbols), stops
# there with the registers and memory of the core, single steps, then the run goes on to a
# normal exit with the same statistics as the run without a debugger. Needs the opt-in ISS
# build (ctest sets UFS_FIRMWARE_ELF and UFS_ARM_NM when it is there).
import contextlib
import json
import os
import shutil
import socket
import struct
import subprocess
import time

import pytest

ELF = os.environ.get("UFS_FIRMWARE_ELF", "")
NM = os.environ.get("UFS_ARM_NM", "")
pytestmark = pytest.mark.skipif(not (ELF and os.path.exists(ELF) and NM),
                                reason="cpu.model=iss is not in this build (make deps-iss)")

WORKLOAD = "rw=randrw,bs=4k,iodepth=4,size=4m,count=40"
ON_COMMAND = "ufs::DeviceFirmware::on_command(ufs::HostCommand const&)"
# Only what the wall clock decides differs between two runs of the same point.
WALL = {"wall_seconds", "simulated_ios_per_wall_second", "peak_rss_mib"}


def symbols():
    out = subprocess.run([NM, "-C", ELF], check=True, capture_output=True, text=True).stdout
    table = {}
    for line in out.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3:
            table[parts[2]] = int(parts[0], 16)
    return table


def elf_bytes(address, count):
    """Bytes of the ELF's load image at a target address (what the core's ATCM holds)."""
    with open(ELF, "rb") as f:
        data = f.read()
    phoff, = struct.unpack_from("<I", data, 28)
    phentsize, phnum = struct.unpack_from("<HH", data, 42)
    for i in range(phnum):
        p_type, p_offset, _, p_paddr, p_filesz = struct.unpack_from("<IIIII", data, phoff + i * phentsize)
        if p_type == 1 and p_paddr <= address and address + count <= p_paddr + p_filesz:
            at = p_offset + address - p_paddr
            return data[at:at + count]
    raise AssertionError("0x%x is not in the ELF's load image" % address)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Rsp:
    """A GDB Remote Serial Protocol client: packets with checksums, acknowledged."""

    def __init__(self, port, proc):
        deadline = 600  # connect attempts (the simulator starts listening at its first entry)
        while True:
            try:
                self.sock = socket.create_connection(("127.0.0.1", port))
                break
            except ConnectionRefusedError:
                deadline -= 1
                assert deadline > 0 and proc.poll() is None, "ufs-sim never listened on the port"
                time.sleep(0.05)
        self.buf = b""

    def _byte(self):
        while not self.buf:
            chunk = self.sock.recv(4096)
            assert chunk, "the simulator closed the connection"
            self.buf += chunk
        b, self.buf = self.buf[:1], self.buf[1:]
        return b

    def send(self, data):
        packet = b"$" + data.encode() + b"#%02x" % (sum(data.encode()) & 0xff)
        self.sock.sendall(packet)
        assert self._byte() == b"+", "packet not acknowledged: " + data

    def reply(self):
        while self._byte() != b"$":
            pass
        data = b""
        while True:
            b = self._byte()
            if b == b"#":
                break
            data += b
        checksum = int(self._byte() + self._byte(), 16)
        assert checksum == sum(data) & 0xff, "bad checksum on " + repr(data)
        self.sock.sendall(b"+")
        return data.decode()

    def ask(self, data):
        self.send(data)
        return self.reply()

    def registers(self):
        """r0-r12, sp, lr, pc, cpsr (the g packet then has d0-d15 and fpscr: 200 bytes)."""
        g = self.ask("g")
        assert len(g) == 2 * (17 * 4 + 16 * 8 + 4), g
        return [struct.unpack("<I", bytes.fromhex(g[i * 8:i * 8 + 8]))[0] for i in range(17)]

    def memory(self, address, count):
        return bytes.fromhex(self.ask("m%x,%x" % (address, count)))


def run_args(sim, out, *extra):
    return [sim, "run", "--preset", "test-small", "--set", "cpu.model=iss", *extra, "--workload", WORKLOAD,
            "--out", str(out)]


def stats(out):
    with open(os.path.join(str(out), "stats.json")) as f:
        s = json.load(f)
    return {k: v for k, v in s.items() if k not in WALL}


@pytest.fixture(scope="module")
def reference(sim, tmp_path_factory):
    out = tmp_path_factory.mktemp("plain")
    subprocess.run(run_args(sim, out), check=True, capture_output=True)
    return stats(out)


@contextlib.contextmanager
def running(args):
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@contextlib.contextmanager
def debugged(sim, out):
    """ufs-sim with the port on, and a protocol client connected to it."""
    port = free_port()
    with running(run_args(sim, out, "--set", "cpu.gdb_port=%d" % port)) as proc:
        yield proc, Rsp(port, proc)


def test_breakpoint_step_and_run_to_the_end_as_without_the_debugger(sim, tmp_path, reference):
    sym = symbols()
    with debugged(sim, tmp_path) as (proc, rsp):
        assert "qXfer:features:read+" in rsp.ask("qSupported:multiprocess+;swbreak+;hwbreak+")
        xml = rsp.ask("qXfer:features:read:target.xml:0,fff")
        assert xml.startswith("l") and "org.gnu.gdb.arm.core" in xml and 'regnum="25"' in xml
        # Waiting at the first entry: the reset, fw_start's first instruction, in Thumb state.
        assert rsp.ask("?") == "S05"
        r = rsp.registers()
        assert r[15] == sym["fw_start"] & ~1
        assert r[16] & (1 << 5)
        assert rsp.ask("p19") == rsp.ask("g")[16 * 8:17 * 8]  # cpsr is gdb's register 25
        # The VFP (hard-float firmware): d0-d15 are gdb's 26-41, fpscr 42; a written d5 reads back.
        assert "org.gnu.gdb.arm.vfp" in xml
        d5 = rsp.ask("p1f")
        assert len(d5) == 16 and rsp.ask("g")[2 * (17 * 4 + 5 * 8):2 * (17 * 4 + 6 * 8)] == d5
        assert rsp.ask("P1f=%s" % struct.pack("<d", 2.5).hex()) == "OK"
        assert struct.unpack("<d", bytes.fromhex(rsp.ask("p1f")))[0] == 2.5
        assert rsp.ask("P1f=%s" % d5) == "OK"
        assert len(rsp.ask("p2a")) == 8
        assert rsp.ask("p2b").startswith("E")
        # A breakpoint on the command handler; the core runs (boot, then the first command).
        target = sym[ON_COMMAND] & ~1
        assert rsp.ask("Z0,%x,2" % target) == "OK"
        hits = []
        for _ in range(3):
            assert rsp.ask("c") == "S05"
            r = rsp.registers()
            assert r[15] == target
            # Memory: the code at the PC is the ELF's; the HostCommand argument (r1) is readable.
            assert rsp.memory(target, 16) == elf_bytes(target, 16)
            command = rsp.memory(r[1], 32)
            assert len(command) == 32
            hits.append((r[1], command))
        assert len({c for _, c in hits}) == 3  # three different commands
        # Single steps: the PC moves on by one Thumb instruction each (the prologue's), the
        # stack pointer after the push below where it was.
        sp0 = r[13]
        pc = r[15]
        for _ in range(4):
            assert rsp.ask("s") == "S05"
            r = rsp.registers()
            assert r[15] in (pc + 2, pc + 4), (hex(pc), hex(r[15]))
            pc = r[15]
        assert r[13] < sp0
        # vCont single step too, and a register written by the debugger is the core's.
        assert rsp.ask("vCont?").startswith("vCont;c;C;s;S")
        assert rsp.ask("vCont;s:1") == "S05"
        r = rsp.registers()
        assert r[15] != pc
        assert rsp.ask("P0=%s" % struct.pack("<I", r[0]).hex()) == "OK"
        # Memory writes and unmapped reads.
        scratch = 0x90000000 + 0xfff0  # the mailbox window's last bytes (unused by the records)
        saved = rsp.memory(scratch, 4)
        assert rsp.ask("M%x,4:deadbeef" % scratch) == "OK"
        assert rsp.memory(scratch, 4) == bytes.fromhex("deadbeef")
        assert rsp.ask("M%x,4:%s" % (scratch, saved.hex())) == "OK"
        assert rsp.ask("m70000000,4").startswith("E")
        # The breakpoint removed, the run goes on to its end: the program exited.
        assert rsp.ask("z0,%x,2" % target) == "OK"
        assert rsp.ask("c") == "W00"
        out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err.decode()
    assert b"waits for the debugger on 127.0.0.1" in err
    # The same run as without the debugger, instruction for instruction.
    assert stats(tmp_path) == reference


def test_detach_lets_the_run_finish_unchanged(sim, tmp_path, reference):
    sym = symbols()
    with debugged(sim, tmp_path) as (proc, rsp):
        assert rsp.ask("?") == "S05"
        # Stop inside a handler (a few instructions into it) and let go there.
        assert rsp.ask("Z0,%x,2" % (sym[ON_COMMAND] & ~1)) == "OK"
        assert rsp.ask("c") == "S05"
        for _ in range(7):
            assert rsp.ask("s") == "S05"
        assert rsp.ask("D") == "OK"
        out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err.decode()
    assert b"debugger detached" in err
    assert stats(tmp_path) == reference


def test_a_step_past_the_handler_stops_at_the_next_entry(sim, tmp_path, reference):
    sym = symbols()
    back = (sym["fw_halt"] & ~1) + 2  # entries return past fw_halt's leading nop (runtime.cpp)
    entry = sym["fw_entry"] & ~1
    with debugged(sim, tmp_path) as (proc, rsp):
        assert rsp.ask("?") == "S05"
        # fw_halt ends every entry; its last step and the core is in the next entry, delivered
        # whenever the simulation gets to it.
        assert rsp.ask("Z0,%x,2" % back) == "OK"
        assert rsp.ask("c") == "S05"
        assert rsp.registers()[15] == back
        assert rsp.ask("z0,%x,2" % back) == "OK"
        # movs, movw, movt, str (the doorbell): four steps, the fourth ends the entry.
        pcs = []
        for _ in range(4):
            assert rsp.ask("s") == "S05"
            pcs.append(rsp.registers()[15])
        assert pcs == [back + 2, back + 6, back + 10, entry], [hex(p) for p in pcs]
        assert rsp.ask("c") == "W00"
        out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err.decode()
    assert stats(tmp_path) == reference


def test_interrupt_and_kill(sim, tmp_path):
    with debugged(sim, tmp_path) as (proc, rsp):
        # A packet with a wrong checksum is refused ('-'), an unknown one answered empty.
        rsp.sock.sendall(b"$?#00")
        assert rsp._byte() == b"-"
        assert rsp.ask("qNoSuchThing") == ""
        assert rsp.ask("?") == "S05"
        # Ctrl-C while the core runs: it stops (SIGINT) at the next entry or sooner.
        rsp.send("c")
        rsp.sock.sendall(b"\x03")
        assert rsp.reply() == "S02"
        assert rsp.registers()[16] & (1 << 5)  # stopped in the firmware's Thumb code
        rsp.send("k")
        out, err = proc.communicate(timeout=600)
    assert proc.returncode != 0
    assert b"killed" in err


def test_bad_input(sim, tmp_path):
    # The native firmware cannot be debugged through the port.
    r = subprocess.run([sim, "run", "--preset", "test-small", "--set", "cpu.gdb_port=1234", "--workload", WORKLOAD,
                        "--out", str(tmp_path / "native")], capture_output=True, text=True)
    assert r.returncode == 2 and "gdb_port: needs cpu.model=iss" in r.stderr, r.stderr
    # A port in use.
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    try:
        r = subprocess.run(run_args(sim, tmp_path / "busy", "--set", "cpu.gdb_port=%d" % busy.getsockname()[1]),
                           capture_output=True, text=True)
    finally:
        busy.close()
    assert r.returncode == 2 and "cannot listen on 127.0.0.1:" in r.stderr, r.stderr
    r = subprocess.run(run_args(sim, tmp_path / "range", "--set", "cpu.gdb_port=70000"), capture_output=True, text=True)
    assert r.returncode == 2 and "gdb_port: must be a TCP port" in r.stderr, r.stderr


@pytest.mark.skipif(not shutil.which("gdb-multiarch"), reason="no gdb-multiarch (make deps-iss installs it)")
def test_a_gdb_multiarch_session(sim, tmp_path, reference):
    # What README "Firmware on the core" shows: gdb itself, with the ELF's symbols and lines.
    port = free_port()
    with running(run_args(sim, tmp_path, "--set", "cpu.gdb_port=%d" % port)) as proc:
        # The port listens before the run says it waits (a probe would be taken for the debugger).
        said = b""
        while b"waits for the debugger" not in said:
            line = proc.stderr.readline()
            assert line, "ufs-sim ended before it waited for the debugger"
            said += line
        gdb = subprocess.run(
            ["gdb-multiarch", "-q", "-batch", "-nx", ELF, "-ex", "target remote :%d" % port,
             "-ex", "break ufs::DeviceFirmware::on_command", "-ex", "continue", "-ex", "bt 1", "-ex", "next",
             "-ex", "stepi", "-ex", "info registers pc", "-ex", "delete", "-ex", "continue"],
            capture_output=True, text=True, timeout=600)
        out, err = proc.communicate(timeout=600)
    session = gdb.stdout + gdb.stderr
    assert "Breakpoint 1, ufs::DeviceFirmware::on_command" in session, session
    assert "device_firmware.cpp" in session, session
    assert "exited normally" in session, session
    assert proc.returncode == 0, err.decode()
    assert stats(tmp_path) == reference
