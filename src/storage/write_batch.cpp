#include "storage/write_batch.hpp"

#include "storage/storage_error.hpp"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

namespace vcs::storage {
namespace {

// Every write's answer once the prologue refused the batch.
batch_outcome refused_by(domain::error e, std::size_t writes) {
  return {std::vector<write_result>(writes, write_result{std::move(e)}), true};
}

// A batch's transaction: begun by the prologue or a plain BEGIN, rolled
// back unless committed (as soci::transaction, which always begins with a
// round trip of its own).
class open_transaction {
public:
  explicit open_transaction(soci::session& sql) : sql_(sql) {}
  open_transaction(const open_transaction&) = delete;
  open_transaction& operator=(const open_transaction&) = delete;
  ~open_transaction() {
    if (!begun_)
      return;
    try {
      sql_.rollback();
    } catch (...) {
      // The connection is gone; so is the transaction.
    }
  }
  std::optional<domain::error> begin(const batch_prologue& prologue) {
    begun_ = true;
    if (prologue)
      return prologue(sql_);
    sql_.begin();
    return std::nullopt;
  }
  void commit() {
    sql_.commit();
    begun_ = false;
  }

private:
  soci::session& sql_;
  bool begun_ = false;
};

// Failures no write of the batch can outlive: the connection is gone, or
// the transaction's time is up, so a rerun would only wait again.
bool must_end_batch(const std::exception& e) {
  return is_connection_error(e) || is_out_of_time(e);
}

// One write, its database exception translated here, once. A failure is
// logged only when it is the answer (`answers`): a batch of several runs
// again write by write, which logs the failing one then.
write_result run_one(soci::session& sql, const batch_write& write, bool answers) {
  try {
    return write(sql);
  } catch (const std::exception& e) {
    if (must_end_batch(e))
      throw;
    auto err = translate(e);
    if (answers && err.code == domain::errc::internal)
      spdlog::error("write failed: {}", e.what());
    return err;
  }
}

// Every write's value, run back to back, or the first failure.
domain::result<std::vector<write_result>> run_together(soci::session& sql,
                                                       const std::vector<batch_write>& writes) {
  std::vector<write_result> out;
  out.reserve(writes.size());
  for (const auto& w : writes) {
    auto r = run_one(sql, w, writes.size() == 1);
    if (!r)
      return std::move(r).err();
    out.push_back(std::move(r));
  }
  return out;
}

// Each write under a savepoint of its own, so that one write's failure
// undoes nothing else.
batch_outcome run_each(soci::session& sql, const batch_prologue& prologue,
                       const std::vector<batch_write>& writes) {
  open_transaction tx{sql};
  if (auto refused = tx.begin(prologue))
    return refused_by(std::move(*refused), writes.size());
  std::vector<write_result> out;
  out.reserve(writes.size());
  for (const auto& w : writes) {
    sql << "SAVEPOINT vcs_job";
    auto r = run_one(sql, w, true);
    sql << (r ? "RELEASE SAVEPOINT vcs_job" : "ROLLBACK TO SAVEPOINT vcs_job");
    out.push_back(std::move(r));
  }
  tx.commit();
  return {std::move(out), false};
}

} // namespace

// Every write back to back in one transaction, committed when all of them
// succeed: no savepoints, which cost two round trips per write, each
// waiting for a core under load. Otherwise the transaction is rolled back
// and the failed batch runs again with a savepoint per write.
batch_outcome run_write_batch(soci::session& sql, const batch_prologue& prologue,
                              const std::vector<batch_write>& writes) {
  {
    open_transaction tx{sql};
    if (auto refused = tx.begin(prologue))
      return refused_by(std::move(*refused), writes.size());
    auto together = run_together(sql, writes);
    if (together) {
      tx.commit();
      return {std::move(*together), false};
    }
    if (writes.size() == 1)
      return {{write_result{std::move(together).err()}}, false};
  }
  return run_each(sql, prologue, writes);
}

} // namespace vcs::storage
