// Keeps ufs_scoreboard a valid library while its sources are globbed.
