#include "modules/modules.hpp"

#include "modules/administration/administration.hpp"
#include "modules/audit/audit.hpp"
#include "modules/board/board.hpp"
#include "modules/co_owners/co_owners.hpp"
#include "modules/contractors/contractors.hpp"
#include "modules/declaration/declaration.hpp"
#include "modules/documents/documents.hpp"
#include "modules/insurance/insurance.hpp"
#include "modules/meetings/meetings.hpp"
#include "modules/units/units.hpp"
#include "modules/water_heaters/water_heaters.hpp"

namespace syndic {

ToolTable all_tool_handlers() {
    ToolTable table;
    register_co_owner_tools(table);
    register_unit_tools(table, restricted_portions_of_unit);
    register_declaration_tools(table);
    register_meeting_tools(table);
    register_audit_tools(table);
    register_water_heater_tools(table);
    register_insurance_tools(table);
    register_contractor_tools(table);
    register_document_tools(table);
    register_administration_tools(table);
    register_board_tools(table);
    return table;
}

}  // namespace syndic
