// precompiled.h plus the widgets the console suites drive (tests/CMakeLists.txt,
// imprint_test_pch_gui): the suites that link the console get this one.
#pragma once

#include "precompiled.h"

#include <QApplication>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QWidget>
