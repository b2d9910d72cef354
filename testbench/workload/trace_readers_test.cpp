#include <catch2/catch.hpp>

#include <vector>

#include "temp_trace_file.h"
#include "workload/workload_error.h"
#include "workload/workload_factory.h"

using namespace ufs;
using ufs::test::TempTraceFile;

// A namespace of its own: the test program is a unity build (testbench/CMakeLists.txt).
namespace trace_readers_test {

namespace {

constexpr uint64_t kPsPerSec = 1000000000000ULL;

std::vector<BlockRequest> replay(const std::string& spec, uint64_t device_blocks = 0,
                                 std::unique_ptr<TraceSubmitter>* keep = nullptr) {
  auto sub = make_trace_submitter(spec, device_blocks);
  std::vector<BlockRequest> out;
  BlockRequest r;
  while (sub->next(r)) out.push_back(r);
  if (keep) *keep = std::move(sub);
  return out;
}

// The error message of a spec that must fail.
std::string error_of(const std::string& spec) {
  try {
    replay(spec);
  } catch (const WorkloadError& e) {
    return e.what();
  }
  return "(no error)";
}

const char* const kMobileSample =
    "proces,device,rw_flag,sector,size,timestamp\n"
    "kworker/u17:3-3643,8388608,W,19284320,16,6640.641113\n"
    "<...>-12228,8388608,R,29880920,16,6640.751646\n"
    "kworker/u17:3-3643,8388608,WS,19284336,8,6640.75164699998\n"
    "odd,name-7,8388608,RA,100,9,6641.0\n"
    "kworker/u17:3-3643,8388608,D,800,8,6641.5\n"
    "kworker/u17:3-3643,8388608,FWS,0,0,6641.6\n";

}  // namespace

TEST_CASE("mobile CSV: fields, streams, RWBS flags", "[workload][trace][mobile]") {
  TempTraceFile file(kMobileSample);
  std::unique_ptr<TraceSubmitter> sub;
  const auto reqs = replay("trace:mobile:" + file.path(), 0, &sub);
  REQUIRE(reqs.size() == 6);
  CHECK(reqs[0].op == BlockOp::Write);
  CHECK(reqs[0].lba == 19284320 / 8);
  CHECK(reqs[0].blocks == 2);
  CHECK(reqs[0].arrival_ps == 0);
  CHECK(reqs[1].op == BlockOp::Read);
  CHECK(reqs[1].arrival_ps == 110533000000ULL);  // 0.110533 s, exact
  CHECK(reqs[2].arrival_ps == 110533999980ULL);
  CHECK(reqs[2].op == BlockOp::Write);
  // sector 100 + 9 sectors = bytes [51200, 55808): widened to blocks 12..13
  CHECK(reqs[3].op == BlockOp::Read);
  CHECK(reqs[3].lba == 12);
  CHECK(reqs[3].blocks == 2);
  CHECK(reqs[4].op == BlockOp::Unmap);
  CHECK(reqs[5].op == BlockOp::Flush);
  CHECK(reqs[5].blocks == 0);
  CHECK(sub->stream_name(reqs[0].stream) == "kworker/u17:3-3643");
  CHECK(sub->stream_name(reqs[1].stream) == "<...>-12228");
  CHECK(sub->stream_name(reqs[3].stream) == "odd,name-7");  // a comma in the name
  CHECK(reqs[2].stream == reqs[0].stream);
  CHECK(sub->stream_count() == 3);
  CHECK(sub->timed());
  CHECK(sub->counters().widened == 1);
}

TEST_CASE("mobile CSV gzip'd reads the same", "[workload][trace][mobile][gzip]") {
  TempTraceFile plain(kMobileSample);
  TempTraceFile gz(kMobileSample, true, ".csv.gz");
  const auto a = replay("trace:mobile:" + plain.path());
  const auto b = replay("trace:mobile:" + gz.path());
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].lba == b[i].lba);
    CHECK(a[i].arrival_ps == b[i].arrival_ps);
  }
}

TEST_CASE("a truncated gzip file is an error naming the file", "[workload][trace][gzip]") {
  std::string big = "proces,device,rw_flag,sector,size,timestamp\n";
  for (int i = 0; i < 20000; ++i) big += "p-" + std::to_string(i % 97) + ",8,W," + std::to_string(i * 8) + ",8,1." + std::to_string(i) + "\n";
  TempTraceFile gz(big, true, ".csv.gz");
  {
    FILE* f = std::fopen(gz.path().c_str(), "r+b");
    REQUIRE(f);
    std::fseek(f, 0, SEEK_END);
    const long size = std::ftell(f);
    REQUIRE(ftruncate(fileno(f), size / 2) == 0);
    std::fclose(f);
  }
  CHECK_THROWS_WITH(replay("trace:mobile:" + gz.path()), Catch::StartsWith(gz.path() + ":") && Catch::Contains("cannot read"));
}

TEST_CASE("mobile CSV malformed lines name file:line", "[workload][trace][mobile]") {
  TempTraceFile bad_flag("proces,device,rw_flag,sector,size,timestamp\np-1,8,W,8,8,1.0\np-1,8,X,8,8,1.5\n");
  CHECK(error_of("trace:mobile:" + bad_flag.path()) ==
        bad_flag.path() + ":3: expected rw_flag R, W or block-layer RWBS flags but found 'X'");
  TempTraceFile bad_sector("p-1,8,W,8x,8,1.0\n");
  CHECK(error_of("trace:mobile:" + bad_sector.path()) ==
        bad_sector.path() + ":1: expected a start sector but found '8x'");
  TempTraceFile short_line("p-1,8,W,8,1.0\n");
  CHECK(error_of("trace:mobile:" + short_line.path()) ==
        short_line.path() +
            ":1: expected 6 comma-separated fields (proces,device,rw_flag,sector,size,timestamp) but found "
            "'p-1,8,W,8,1.0'");
  TempTraceFile zero("p-1,8,W,8,0,1.0\n");
  CHECK(error_of("trace:mobile:" + zero.path()) == zero.path() + ":1: expected a non-zero size but found '0'");
  TempTraceFile time("p-1,8,W,8,8,soon\n");
  CHECK(error_of("trace:mobile:" + time.path()) == time.path() + ":1: expected a timestamp in seconds but found 'soon'");
  CHECK_THROWS_WITH(replay("trace:mobile:/nonexistent/x.csv"),
                    Catch::StartsWith("/nonexistent/x.csv: cannot open (No such file or directory"));
}

TEST_CASE("blkparse: Q or D events, RWBS, summary", "[workload][trace][blkparse]") {
  TempTraceFile file(
      "  8,0    3        1     0.000000000   697  A   W 223490 + 8 <- (8,1) 223427\n"
      "  8,0    3        2     0.000001000   697  Q   W 223490 + 8 [kjournald]\n"
      "  8,0    3        3     0.000002000   697  G   W 223490 + 8 [kjournald]\n"
      "  8,0    3        4     0.000010000   697  D   W 223490 + 8 [kjournald]\n"
      "  8,0    1        5     0.001000000  1234  Q  RA 1000 + 64 [cat]\n"
      "  8,0    1        6     0.002000000  1234  Q FWFS 2048 + 16 [sync thing]\n"
      "  8,0    1        7     0.003000000    12  Q  FN [kworker/1:1]\n"
      "  8,0    1        8     0.004000000    12  Q   N [scsi_id]\n"
      "  8,0    1        9     0.005000000    12  Q  DS 4096 + 2048 [fstrim]\n"
      "  8,0    0        0     0.006000000     0  m   N cfq schedule dispatch\n"
      "  8,0    1       10     0.007000000    20  Q  FWS [jbd2/sda1-8]\n"
      "\n"
      "CPU0 (8,0):\n"
      " Reads Queued:           1,       32KiB\t Writes Queued:           3,        28KiB\n");
  std::unique_ptr<TraceSubmitter> sub;
  const auto q = replay("trace:blkparse:" + file.path(), 0, &sub);
  REQUIRE(q.size() == 7);
  CHECK(q[0].op == BlockOp::Write);
  CHECK(q[0].lba == 223490 / 8);
  CHECK(q[0].blocks == 2);  // sector 223490 is not 4 KiB aligned: widened
  CHECK(q[0].arrival_ps == 0);
  CHECK(sub->stream_name(q[0].stream) == "kjournald-697");
  CHECK(q[1].op == BlockOp::Read);
  CHECK(q[1].lba == 125);
  CHECK(q[1].blocks == 8);
  CHECK(q[1].arrival_ps == 999000000ULL);
  CHECK(q[2].op == BlockOp::Flush);  // FWFS: preflush, then a FUA write
  CHECK(q[3].op == BlockOp::Write);
  CHECK(q[3].fua);
  CHECK(q[3].lba == 256);
  CHECK(q[2].arrival_ps == q[3].arrival_ps);
  CHECK(sub->stream_name(q[3].stream) == "sync thing-1234");
  CHECK(q[4].op == BlockOp::Flush);  // FN
  CHECK(q[5].op == BlockOp::Unmap);
  CHECK(q[5].blocks == 256);
  CHECK(q[6].op == BlockOp::Flush);  // FWS without data: one flush
  CHECK(sub->counters().ignored == 1);  // the "N" request

  const auto d = replay("trace:blkparse:" + file.path() + ",event=D");
  REQUIRE(d.size() == 1);
  CHECK(d[0].op == BlockOp::Write);
}

TEST_CASE("blkparse malformed lines name file:line", "[workload][trace][blkparse]") {
  TempTraceFile bad("  8,0    3        1     0.000000000   697  Q   W 223490 - 8 [kjournald]\n");
  CHECK(error_of("trace:blkparse:" + bad.path()) == bad.path() + ":1: expected '+' after the sector but found '-'");
  TempTraceFile junk("  8,0    3        1     0.000000000   697  Q   W 1 + 8 [a]\nhello world\n");
  CHECK(error_of("trace:blkparse:" + junk.path()) ==
        junk.path() + ":2: expected a blkparse event 'MAJ,MIN CPU SEQ TIME PID ACTION RWBS ...' but found 'hello world'");
  TempTraceFile rwbs("  8,0    3        1     0.000000000   697  Q   X 1 + 8 [a]\n");
  CHECK(error_of("trace:blkparse:" + rwbs.path()) ==
        rwbs.path() + ":1: expected RWBS flags (R, W, D, F, N with A, S, M, F) but found 'X'");
}

TEST_CASE("fio iolog v2 and v3", "[workload][trace][fio]") {
  TempTraceFile v2(
      "fio version 2 iolog\n"
      "/dev/sdb add\n"
      "/dev/sdb open\n"
      "/dev/sdb write 0 4096\n"
      "/dev/sdb read 8192 16384\n"
      "/dev/sdb wait 500\n"
      "/dev/sdb trim 1048576 65536\n"
      "/dev/sdb sync 0 0\n"
      "/dev/sdc read 4096 4096\n"
      "/dev/sdb close\n");
  std::unique_ptr<TraceSubmitter> sub;
  const auto a = replay("trace:fio:" + v2.path(), 0, &sub);
  REQUIRE(a.size() == 5);
  CHECK(a[0].op == BlockOp::Write);
  CHECK(a[0].lba == 0);
  CHECK(a[1].op == BlockOp::Read);
  CHECK(a[1].lba == 2);
  CHECK(a[1].blocks == 4);
  CHECK(a[1].arrival_ps == 0);
  CHECK(a[2].op == BlockOp::Unmap);
  CHECK(a[2].arrival_ps == 500000000ULL);  // wait 500 us
  CHECK(a[3].op == BlockOp::Flush);
  CHECK(sub->stream_name(a[4].stream) == "/dev/sdc");

  TempTraceFile v3(
      "fio version 3 iolog\n"
      "0 /dev/nvme0n1 add\n"
      "2 /dev/nvme0n1 open\n"
      "1000 /dev/nvme0n1 write 0 16384\n"
      "1500 /dev/nvme0n1 read 4096 4096\n"
      "9000 /dev/nvme0n1 close\n");
  const auto b = replay("trace:fio:" + v3.path());
  REQUIRE(b.size() == 2);
  CHECK(b[0].arrival_ps == 0);
  CHECK(b[1].arrival_ps == 500000000ULL);  // 500 us
  const auto ms = replay("trace:fio:" + v3.path() + ",time_unit=ms");
  CHECK(ms[1].arrival_ps == 500000000000ULL);

  TempTraceFile nohdr("/dev/sdb write 0 4096\n");
  CHECK(error_of("trace:fio:" + nohdr.path()) ==
        nohdr.path() + ":1: expected 'fio version 2 iolog' or 'fio version 3 iolog' but found '/dev/sdb write 0 4096'");
  TempTraceFile badact("fio version 3 iolog\n5 /dev/sdb scribble 0 4096\n");
  CHECK(error_of("trace:fio:" + badact.path()) ==
        badact.path() +
            ":2: expected an action read, write, trim, sync, datasync, wait, add, open or close but found 'scribble'");
  TempTraceFile badlen("fio version 2 iolog\n/dev/sdb write 0 4k\n");
  CHECK(error_of("trace:fio:" + badlen.path()) == badlen.path() + ":2: expected a length in bytes but found '4k'");
}

TEST_CASE("MSR Cambridge CSV", "[workload][trace][msr]") {
  TempTraceFile file(
      "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n"
      "128166372003061629,wdev,0,Read,3203723264,16384,3985\n"
      "128166372016382155,wdev,0,Write,3974811648,4096,10430\n"
      "128166372016382155,hm,1,write,512,1024,5\n");
  std::unique_ptr<TraceSubmitter> sub;
  const auto r = replay("trace:msr:" + file.path(), 0, &sub);
  REQUIRE(r.size() == 3);
  CHECK(r[0].op == BlockOp::Read);
  CHECK(r[0].lba == 3203723264ULL / 4096);
  CHECK(r[0].blocks == 4);
  CHECK(r[1].op == BlockOp::Write);
  CHECK(r[1].arrival_ps == (128166372016382155ULL - 128166372003061629ULL) * 100000ULL);
  CHECK(r[2].lba == 0);
  CHECK(r[2].blocks == 1);
  CHECK(sub->stream_name(r[0].stream) == "wdev_0");
  CHECK(sub->stream_name(r[2].stream) == "hm_1");
  CHECK(sub->counters().widened == 1);

  TempTraceFile bad("128166372003061629,wdev,0,Erase,3203723264,16384,3985\n");
  CHECK(error_of("trace:msr:" + bad.path()) == bad.path() + ":1: expected Type Read or Write but found 'Erase'");
}

TEST_CASE("DiskSim ASCII", "[workload][trace][disksim]") {
  TempTraceFile file(
      "5265.313 0 6357144 8 0\n"
      "5265.703 0 6307768 8 1\n"
      "5297.450 2 33701824 64 0\n");
  std::unique_ptr<TraceSubmitter> sub;
  const auto r = replay("trace:disksim:" + file.path(), 0, &sub);
  REQUIRE(r.size() == 3);
  CHECK(r[0].op == BlockOp::Write);
  CHECK(r[0].lba == 6357144 / 8);
  CHECK(r[1].op == BlockOp::Read);
  CHECK(r[1].arrival_ps == 390000000ULL);  // 0.39 ms
  CHECK(r[2].blocks == 8);
  CHECK(sub->stream_name(r[2].stream) == "dev2");

  TempTraceFile bad("5265.313 0 6357144 8 0\n5265.703 0 6307768 8\n");
  CHECK(error_of("trace:disksim:" + bad.path()) ==
        bad.path() + ":2: expected 5 fields 'TIME_MS DEVNO BLKNO NBLKS FLAGS' but found '5265.703 0 6307768 8'");
}

TEST_CASE("MQSim / SSDsim ASCII", "[workload][trace][mqsim]") {
  TempTraceFile file(
      "11413000 0 657728 16 1\n"
      "11565000 1 31244784 64 0\n");
  std::unique_ptr<TraceSubmitter> sub;
  const auto r = replay("trace:mqsim:" + file.path(), 0, &sub);
  REQUIRE(r.size() == 2);
  CHECK(r[0].op == BlockOp::Read);
  CHECK(r[0].lba == 657728 / 8);
  CHECK(r[0].blocks == 2);
  CHECK(r[1].op == BlockOp::Write);
  CHECK(r[1].arrival_ps == 152000000ULL);
  CHECK(sub->stream_name(r[1].stream) == "dev1");

  TempTraceFile bad("11413000 0 657728 16 1\n11565000 1 31244784 64 7\n");
  CHECK(error_of("trace:mqsim:" + bad.path()) ==
        bad.path() + ":2: expected TYPE 1 (read) or 0 (write) but found '7'");
}

TEST_CASE("trace spec errors", "[workload][trace]") {
  CHECK_THROWS_WITH(make_workload("trace:csv:/tmp/x", 1000),
                    "trace spec: unknown format 'csv' (mobile, blkparse, fio, msr, disksim, mqsim)");
  CHECK_THROWS_WITH(make_workload("trace:mobile:/tmp/x,speed=2", 1000), "trace options: unknown key 'speed'");
  CHECK_THROWS_WITH(make_workload("trace:mobile:/tmp/x,scale=fast", 1000), "scale: 'fast' is not a number");
  CHECK_THROWS_WITH(make_workload("trace:mobile:/tmp/x,fold=squash", 1000),
                    "fold: 'squash' is not none, modulo or remap");
  CHECK_THROWS_WITH(make_workload("trace:mobile:/tmp/x,event=D", 1000), "event: only for the blkparse format");
  // 0 means "no limit" inside: given explicitly it replayed the whole trace without a word.
  CHECK_THROWS_WITH(make_workload("trace:mobile:/tmp/x,limit=0", 1000),
                    "limit: must be at least 1 (leave it out to replay the whole trace)");
  CHECK_THROWS_WITH(make_workload("trace:mobile:/tmp/x,duration=0", 1000),
                    "duration: must be above 0 (leave it out to replay to the end of the trace)");
  CHECK_THROWS_WITH(make_workload("trace:mobile:/tmp/x,scale=0x10", 1000), "scale: '0x10' is not a number");
}

TEST_CASE("Absolute timestamps of any size: the first is subtracted before converting to ps", "[workload][trace]") {
  // A phone up for more than 106 days: 9,223,372.04 s and more overflowed 64-bit picoseconds.
  TempTraceFile mobile("proces,device,rw_flag,sector,size,timestamp\n"
                       "app,8,R,8,8,9300000.000001\napp,8,R,16,8,9300000.500001\n");
  const auto m = replay("trace:mobile:" + mobile.path());
  REQUIRE(m.size() == 2);
  CHECK(m[1].arrival_ps == kPsPerSec / 2);
  TempTraceFile blk("  8,0    3        1 9300000.000000000   697  Q   R 8 + 8 [a]\n"
                    "  8,0    3        2 9300000.250000000   697  Q   R 16 + 8 [a]\n");
  const auto b = replay("trace:blkparse:" + blk.path());
  REQUIRE(b.size() == 2);
  CHECK(b[1].arrival_ps == kPsPerSec / 4);
  TempTraceFile disksim("9300000000.000 0 8 8 1\n9300000001.000 0 16 8 1\n");  // ms
  const auto d = replay("trace:disksim:" + disksim.path());
  REQUIRE(d.size() == 2);
  CHECK(d[1].arrival_ps == kPsPerSec / 1000);
  TempTraceFile mq("18446744073709000000 0 8 8 1\n18446744073709001000 0 16 8 1\n");  // ns beyond INT64_MAX
  const auto q = replay("trace:mqsim:" + mq.path());
  REQUIRE(q.size() == 2);
  CHECK(q[1].arrival_ps == 1000000);
  // More than 100 days apart is still refused (the longest simulated time).
  TempTraceFile far("app,8,R,8,8,1.0\napp,8,R,8,8,9300000.0\n");
  CHECK(error_of("trace:mobile:" + far.path()) ==
        far.path() + ":2: expected a timestamp within 100 days of the first but found '9300000.0'");
}

TEST_CASE("Traces that replay nothing, lines without end and arrivals beyond time are errors", "[workload][trace]") {
  TempTraceFile empty("");
  CHECK(error_of("trace:mobile:" + empty.path()) ==
        empty.path() + ": no requests to replay: it holds no request records (0 lines read)");
  TempTraceFile header("proces,device,rw_flag,sector,size,timestamp\n");
  CHECK(error_of("trace:mobile:" + header.path()) ==
        header.path() + ": no requests to replay: it holds no request records (1 lines read)");
  TempTraceFile two("app,8,R,8,8,1.0\napp,8,R,16,8,2.0\n");
  CHECK(error_of("trace:mobile:" + two.path() + ",skip=5") ==
        two.path() + ": no requests to replay: skip=5 passes its 2 records (2 lines read)");
  CHECK(error_of("trace:mobile:" + two.path() + ",start=10s") ==
        two.path() + ": no requests to replay: no record falls within start/duration (2 lines read)");
  TempTraceFile endless("app,8,R,8,8,1.0\n" + std::string(5u << 20, '7'));
  CHECK(error_of("trace:mobile:" + endless.path()) == endless.path() + ":2: line longer than 4 MiB (not a text trace?)");
  CHECK(error_of("trace:mobile:/dev/zero") == "/dev/zero:1: line longer than 4 MiB (not a text trace?)");
  CHECK(error_of("trace:mobile:" + two.path() + ",scale=1e308") == "scale: '1e308' is out of range [0, 1e6]");
}

}  // namespace trace_readers_test
